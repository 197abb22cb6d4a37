"""Strategy trees outside the engine's memory: their files (moocow's JSON and text, Graphviz DOT,
Selby's format), drawn as SVG, and followed as a strategy (``tree:PATH``).

The tree itself (``moocow.engine.tree.Node``, built by ``build_tree``) is the engine's: an
evaluation makes one. This room reads, writes and draws it, and knows no game's rules.
"""
