"""The referee: rounds played by players at a seat, and the line protocol they speak.

A player is named (``players.py``), seated (``seats.py``: an engine strategy in this process, or a
program in the jail of ``moocow.sandbox``), dealt a deck's secrets (``decks.py``, the course's in
``bacrunner.py``) and refereed round by round (``referee.py``, its guesses checked by ``rules.py``).
``adapter.py`` runs a Python module player in its own process (``python -m moocow.referee.adapter``):
it imports this package there, so this file imports nothing.
"""
