"""Play at the table, for the terminal and the web page alike: the assistant that keeps track of
what is still possible, the computer as the opponent that holds the secret, the assistant's
openings kept between sessions, a game looked back on, and a guess entered piece by piece.

The terminal's conversation (``moocow.cli.interactive``) and the web's pages both call these, so
they suggest, deal, answer and review alike.
"""
