"""The compiled search below the Python levels (numba), one module per job.

- ``branch``: the fail-soft branch and bound itself, and the bound of a set one level deeper;
- ``scores``: bounds on every guess at a set, from the table;
- ``store``: every set solved or refuted, in numpy arrays (owned by ``set_store``);
- ``entries``: the functions Python calls, served as the engine's kernels are
  (``engine.kernel``: built ahead of time, or numba's cache checked against every kernel's source);
- ``layout``: what both sides share without loading numba.

The relabellings that fix the guesses played (one guess per class) are the engine's
(``engine.kernel.relabel``), inlined here.
"""
