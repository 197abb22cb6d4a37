"""The games' compiled loops (``marking``: Wordle's marks over a whole table), served as the
engine's kernels are (``entries``: built ahead of time where they can be, else numba's cache)."""
