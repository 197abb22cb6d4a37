"""The jail: one player program in a process of its own, confined, limited, metered and cleaned up.

It knows no game and no round: it starts a command (``process.PlayerProcess``) at the strongest
level of confinement the machine allows (``sandbox.py``: bubblewrap's namespaces, a user id of its
own, or none on request), under the limits of ``limits.py`` set by ``launch.py`` before the player
runs, with the seccomp filter of ``seccomp.py``; it meters the CPU time, memory, processes and disk
of all the player's processes together (``usage.py``, ``meter.py``, ``watch.py``, ``disk.py``),
names every misbehaviour as a ``fouls.Foul``, and kills and removes whatever the player left
(``orphans.py``, ``cleanup.py``). It imports nothing of moocow but itself, ``engine.errors`` and
``engine.wording`` (a player's stderr is escaped as every other player text is): a contract in
``pyproject.toml`` holds it so. The referee (``moocow.referee``) speaks the protocol through it.
"""
