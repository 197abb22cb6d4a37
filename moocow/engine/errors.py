"""The one exception type that user-facing layers turn into a one-line message."""


class MoocowError(ValueError):
    """Bad input from a person or a file: an unknown game, a malformed code, impossible feedback.

    The CLI prints ``str(error)`` on one line and exits with status 2; the runner records it as
    the reason a round failed. Internal bugs are never wrapped in it.
    """
