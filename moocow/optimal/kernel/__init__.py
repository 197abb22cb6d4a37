"""The compiled search below the Python levels (numba), one module per job.

- ``branch``: the fail-soft branch and bound itself, and the bound of a set one level deeper;
- ``scores``: bounds on every guess at a set, from the table;
- ``relabel``: the relabellings that fix the guesses played, one guess per class;
- ``store``: every set solved or refuted, in numpy arrays;
- ``loading``: numba's cache of each function checked against every module here, and loaded fast.
"""

from moocow.optimal.kernel import loading

loading.install()
