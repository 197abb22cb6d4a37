"""Word sources, apart from any game: wordfreq's lists, a dictionary filter, word files, playability."""

from moocow.wordlists.alpha import alpha_words
from moocow.wordlists.english import english_words, is_english
from moocow.wordlists.files import file_words, game_file_words
from moocow.wordlists.frequency import wordfreq_words
from moocow.wordlists.official import official_lists
from moocow.wordlists.playable import is_playable, is_spelled, playable, spelled

__all__ = [
    "alpha_words",
    "english_words",
    "file_words",
    "game_file_words",
    "is_english",
    "is_playable",
    "is_spelled",
    "official_lists",
    "playable",
    "spelled",
    "wordfreq_words",
]
