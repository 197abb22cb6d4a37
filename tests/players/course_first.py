"""A course-interface player (bacplayer.py style): the first word in the list that fits every answer."""

_words = []


def initialize_wordlist(words):
    _words[:] = words


def count_bulls_and_cows(guess, secret):
    """Scored as the course runner scores: a bull per matching place, a cow per other letter in the secret."""
    bulls = sum(g == s for g, s in zip(guess, secret, strict=False))
    cows = sum(g != s and g in secret for g, s in zip(guess, secret, strict=False))
    return bulls, cows


def guess(n, guesses_so_far):
    for word in _words:
        if len(word) == n and all(
            count_bulls_and_cows(previous, word) == (bulls, cows) for previous, bulls, cows in guesses_so_far
        ):
            return word
    return _words[0]


def student_id():
    return "123456789"


def author():
    return "Course, Test"
