"""The one exception type that user-facing layers turn into a one-line message."""


class MoocowError(ValueError):
    """Bad input from a person or a file: an unknown game, a malformed code, impossible feedback.

    The CLI prints ``str(error)`` on one line and exits with status 2; the runner records it as
    the reason a round failed. Internal bugs are never wrapped in it.
    """


def one_line(error: BaseException) -> str:
    """``Type: message`` on one line, whatever the exception's text looks like (someone else's
    code raised it: a plugin's)."""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
