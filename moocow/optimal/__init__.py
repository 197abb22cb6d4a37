"""The exact search: the strategy with the fewest guesses in total, proven (``prove.prove_optimal``).

The first levels are searched here in Python (``search``), the rest by the compiled kernel
(``kernel``); guesses alike by symmetry are tried once (``symmetry``), work is spread over
processes or a Dask cluster (``parallel``, ``cluster``) and kept in a store that resumes
(``proof_store``). Nothing is imported here: ``moocow --help`` must not load numba.
"""
