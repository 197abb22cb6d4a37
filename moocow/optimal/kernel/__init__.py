"""The compiled search below the Python levels (numba), one module per job.

- ``branch``: the fail-soft branch and bound itself, and the bound of a set one level deeper;
- ``scores``: bounds on every guess at a set, from the table;
- ``relabel``: the relabellings that fix the guesses played, one guess per class;
- ``store``: every set solved or refuted, in numpy arrays (owned by ``set_store``);
- ``entries``: the functions Python calls, served by ``ahead`` (built ahead of time, loaded
  without numba) or else by ``loading`` (numba's cache, checked against every module here);
- ``layout`` and ``stamp``: what both sides share without loading numba.
"""
