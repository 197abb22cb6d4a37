"""Which of wordfreq's words are English words, not names: a dictionary, not frequency, decides.

wordfreq counts tokens in running text, so its English lists hold names (abdel, diane, zhang),
places, brands and misspellings as often as words. A word is kept when it is a form (an
inflection included: asked, boxes, women) of a noun, verb, adjective or adverb in lemminflect's
lexicon, which is drawn from the NIH SPECIALIST Lexicon and has no proper nouns, or when it is
one of the closed-class words below, which that lexicon leaves out (until, among, seven).
Measured on wordfreq 3.1.1's small list, five letters: 2,323 words before, 1,682 after; what goes
is almost all names (abdul, biden, diane, egypt, fiona, huang, zhang...), with a few recent or
informal words (blogs, emoji, yikes) that the lexicon does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

_CLOSED_CLASS_WORDS = """
    a an the every
    and but for nor or so yet although because if lest than though unless until whereas whether
    whilst while
    aboard about above across after against along amid amidst among amongst around as at before
    behind below beneath beside besides between beyond by despite down during except from in
    inside into like near of off on onto out outside over past per since through throughout till
    to toward towards under underneath unlike unto up upon via with within without
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
    hundred thousand million billion first second third fourth fifth sixth seventh eighth ninth
    tenth
    ah aha alas hey hi hello oh ouch wow yeah yes
"""
CLOSED_CLASS = frozenset(_CLOSED_CLASS_WORDS.split())
"""Articles, conjunctions, prepositions, number words and interjections: English words the
lexicon (nouns, verbs, adjectives and adverbs) leaves out."""


def english_words(words: Iterable[str]) -> list[str]:
    """The English words among ``words`` (lower case a-z), in their order."""
    return [word for word in words if is_english(word)]


def is_english(word: str) -> bool:
    """True for a form of an English noun, verb, adjective or adverb, or a closed-class word."""
    return word in CLOSED_CLASS or bool(_lemmas()(word))


@cache
def _lemmas() -> Callable[[str], dict[str, tuple[str, ...]]]:
    """lemminflect's lookup, imported on first use: its tables are slow to load."""
    from lemminflect import getAllLemmas

    return getAllLemmas
