"""Play at the table, for the terminal and the web page alike: the assistant that keeps track of
what is still possible, the computer as the opponent that holds the secret (``opponent.Match``),
the one reader of a typed entry and the lines both say (``table``), the assistant's openings kept
between sessions, a game looked back on, and a guess entered piece by piece.

The terminal's conversation (``moocow.cli.interactive``) and the web's pages only show these, so
they read, suggest, warn, deal, answer and review alike.
"""
