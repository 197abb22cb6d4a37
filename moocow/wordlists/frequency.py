"""English words from wordfreq, most frequent first, optionally above a Zipf frequency floor."""

from __future__ import annotations

import math
from functools import lru_cache

from moocow.engine.errors import MoocowError


@lru_cache(maxsize=32)
def wordfreq_words(wordlist: str = "small", zipf: float = 0.0) -> tuple[str, ...]:
    """The words of a wordfreq English list (``small`` or ``large``) with Zipf frequency >= ``zipf``.

    wordfreq stores its lists as bands of equal frequency, band ``i`` at Zipf ``9 - i / 100``
    (``zipf_frequency`` agrees exactly for every plain word), so the floor just cuts the band list:
    no per-word lookups. Order is wordfreq's: descending frequency, alphabetical within a band.
    wordfreq is imported here, not at the top: it is slow to import, and every CLI start imports this
    module through the word game plugin, mostly to play something else.
    """
    import wordfreq

    try:
        bands = wordfreq.get_frequency_list("en", wordlist)
    except LookupError:
        raise MoocowError(f"unknown wordfreq list {wordlist!r} (use small or large)") from None
    last_band = math.floor(round((9 - zipf) * 100, 6))  # rounded first: Zipf 3.3 is band 570, not 569
    return tuple(word for band in bands[: max(0, last_band + 1)] for word in band)
