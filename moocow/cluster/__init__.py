"""A Dask cluster, shared by the runner's sessions and the exact search's guesses."""
