"""The one exception type that user-facing layers turn into a one-line message, and the forms of
text such a message quotes."""

SHOWN = 40
"""Characters of typed text quoted in a message: a mistyped 10 MB line is not echoed back."""


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


def quoted(text: str) -> str:
    """Typed text in a message: stripped, quoted, and cut to ``SHOWN`` characters if long."""
    shown = text.strip()
    return repr(shown) if len(shown) <= SHOWN else repr(shown[: SHOWN - 3] + "...")
