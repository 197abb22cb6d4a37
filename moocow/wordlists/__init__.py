"""Word sources, independent of any game: wordfreq's English lists, word files, the playable filter."""

from moocow.wordlists.files import file_words
from moocow.wordlists.frequency import wordfreq_words
from moocow.wordlists.playable import is_playable, playable

__all__ = ["file_words", "is_playable", "playable", "wordfreq_words"]
