"""What a game's own code hands the engine, checked where it is handed over.

A game plugin is someone else's code. Its codes and its feedback are checked as they come, so
that a mistake is one line naming the game, not a traceback far away (a list where an array
belongs), and never a silent misreading (a code of 256 wrapped to 0, a NaN cast to a feedback, a
repeated code counted as two secrets).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from moocow.engine.errors import SHOWN, MoocowError, one_line
from moocow.engine.faults import owned

if TYPE_CHECKING:
    from moocow.engine.game import Codes, Game

MAX_CODES = 5_000_000
"""Largest code space the engine will build; beyond it every decision would take hours."""
LARGEST_SYMBOL = 255
"""Codes are kept as ``uint8``."""
WIN_CHECK_PAIRS = 1 << 22
"""Pairs scored to check the winning answer when a game is loaded (tens of milliseconds): every
pair of a game this small, else every guess against secrets spread evenly over the space."""

SYMMETRY_CHECK_PAIRS = 256
"""Pairs of codes each declared symmetry is checked on when a game is loaded (``check_symmetries``)."""
SYMMETRY_CHECK_SEED = 45
"""The sample's seed: the same pairs and relabellings every run, so a refusal can be repeated."""

FeedbackFunction = Callable[["Game", "Codes", "Codes"], np.ndarray]
ParseFunction = Callable[["Game", str], np.ndarray]
FormatFunction = Callable[["Game", np.ndarray], str]


def built(game: Game, what: str, build: Callable[[], Any]) -> Any:
    """What ``build`` (a game's own method) returns; whatever it raises is one line naming it."""
    try:
        return build()
    except (MoocowError, MemoryError):  # out of memory is the machine's limit, not the game's bug
        raise
    except Exception as error:
        raise MoocowError(f"{game.spec}: its {what} failed: {one_line(error)}") from None


def checked_codes(codes: Any, length: int, what: str) -> Codes:
    """A code space as the engine keeps it: a 2-D array of small whole numbers, no code twice,
    checked before it is converted (so nothing is changed on the way)."""
    array = _array(codes)
    if array is None or array.ndim != 2 or array.shape[1] != length or len(array) == 0:
        raise MoocowError(f"{what}: expected a non-empty array of codes of length {length}")
    if len(array) > MAX_CODES:
        raise MoocowError(f"{what}: {len(array):,} codes is more than the engine handles ({MAX_CODES:,})")
    if not _small_whole_numbers(array):
        raise MoocowError(
            f"{what}: codes must be whole numbers from 0 to {LARGEST_SYMBOL} ({array.dtype} given)"
        )
    array = np.ascontiguousarray(array, dtype=np.uint8)
    if len(np.unique(array.view(np.dtype((np.void, length))).ravel())) != len(array):
        raise MoocowError(f"{what}: a code is there twice")
    return array


def checked_length(game: Game) -> int:
    """The game's ``code_length``: a whole number of symbols the engine can hold."""
    length = built(game, "code_length", lambda: game.code_length)
    if (
        isinstance(length, bool)
        or not isinstance(length, int | np.integer)
        or not 1 <= length <= LARGEST_SYMBOL
    ):
        raise MoocowError(
            f"{game.spec}: code_length must be a whole number from 1 to {LARGEST_SYMBOL}, not {length!r}"
        )
    return int(length)


def checked_feedback(feedback: FeedbackFunction) -> FeedbackFunction:
    """A game's ``feedback``, its answers checked: a ``(guesses, secrets)`` array of whole numbers
    below the game's ``feedback_model.size``."""

    @functools.wraps(feedback)
    def checked(game: Game, guesses: Codes, secrets: Codes) -> np.ndarray:
        answers = built(game, "feedback", lambda: feedback(game, guesses, secrets))
        shape = (len(guesses), len(secrets))
        if not isinstance(answers, np.ndarray) or answers.shape != shape or answers.dtype.kind not in "iub":
            raise MoocowError(
                f"{game.spec}: feedback must be an array of whole numbers of shape {shape}; "
                f"it gave {_described(answers)}"
            )
        largest = game.feedback_model.size - 1
        if answers.size and (answers.min() < 0 or answers.max() > largest):
            raise MoocowError(
                f"{game.spec}: feedback must be a value of its {game.feedback_model.kind} (0 to {largest}), "
                f"not {answers.min() if answers.min() < 0 else answers.max()}"
            )
        return answers

    checked.is_checked = True  # type: ignore[attr-defined]  # a mark on a function object
    return checked


def checked_parse(parse_code: ParseFunction) -> ParseFunction:
    """A game's ``parse_code``, its answer checked: one code of the game's length, as ``uint8``.
    Its ``MoocowError`` says what is wrong with the typed text; anything else it raises is a fault."""

    @functools.wraps(parse_code)
    def checked(game: Game, text: str) -> np.ndarray:
        code = built(game, "parse_code", lambda: parse_code(game, text))
        array = _array(code)
        if array is None or array.shape != (game.code_length,) or not _small_whole_numbers(array):
            raise MoocowError(
                f"{game.spec}: parse_code must give {game.code_length} whole numbers from 0 to "
                f"{LARGEST_SYMBOL}; it gave {_described(code)}"
            )
        return array.astype(np.uint8)

    checked.is_checked = True  # type: ignore[attr-defined]  # a mark on a function object
    return checked


def checked_format(format_code: FormatFunction) -> FormatFunction:
    """A game's ``format_code``, its answer checked: one line of printable text, which the
    runner's protocol sends and reads back."""

    @functools.wraps(format_code)
    def checked(game: Game, code: np.ndarray) -> str:
        text = built(game, "format_code", lambda: format_code(game, code))
        if not isinstance(text, str) or not text or not text.isprintable():
            raise MoocowError(
                f"{game.spec}: format_code must give a line of printable text; it gave {_described(text)}"
            )
        return text

    checked.is_checked = True  # type: ignore[attr-defined]  # a mark on a function object
    return checked


def check_feedback_model(game: Game) -> None:
    """A game's ``feedback_model`` (a plugin's own code) as the engine needs it: a ``FeedbackModel``
    whose values are whole numbers below its size, the win among them; else one line naming it."""
    from moocow.engine.feedback import FeedbackModel

    model = built(game, "feedback_model", lambda: game.feedback_model)
    if not isinstance(model, FeedbackModel):
        raise MoocowError(
            f"{game.spec}: feedback_model must be a moocow.engine.feedback.FeedbackModel, "
            f"not {_described(model)}"
        )
    owned(model, game)  # a model kept on the class: its faults are named by this game
    size, win = model.size, model.win
    whole = int | np.integer
    if not (isinstance(size, whole) and 1 <= size <= 1 << 32 and isinstance(win, whole) and 0 <= win < size):
        raise MoocowError(
            f"{game.spec}: its feedback model needs a whole size from 1 to 2**32 and a win below it "
            f"(size {size!r}, win {win!r})"
        )
    values = built(game, "feedback_model.values", model.values)
    if not all(isinstance(value, whole) and 0 <= value < size for value in values) or win not in values:
        raise MoocowError(
            f"{game.spec}: its feedback model's values must be whole numbers below {size}, the win among them"
        )


def check_winning_answer(game: Game) -> None:
    """Refuse a game whose winning answer can come from a guess other than the secret.

    Every command takes ``game.win`` to mean the guess *is* the secret: a colour-only Mastermind,
    where 1122 scores the win against 2211, was "found in 1 guess" by ``solve`` and lost every
    round of a tournament. Checked once per game, on every pair of a small game, on a sample of
    secrets of a large one (``WIN_CHECK_PAIRS``); the exact search checks every pair itself.
    """
    if game.caches.win_checked:
        return
    secrets, guesses = game.secrets, game.guesses
    count = max(1, min(len(secrets), WIN_CHECK_PAIRS // len(guesses)))
    chosen = np.unique(np.linspace(0, len(secrets) - 1, count).round().astype(np.int64))
    check_wins(game, game.feedback(guesses, secrets[chosen]).T, chosen)
    game.caches.win_checked = True


def check_symmetries(game: Game) -> None:
    """Refuse a game whose feedback does not keep a symmetry it declares (``Game.symmetries``, those
    its feedback model allows: the ones ``Game.symmetries_in_force`` may keep).

    Searches score one guess per class of guesses alike by relabelling, so a false claim gave wrong
    totals with no warning (minmax scored 673 guesses where 580 was honest). Checked once per game,
    on ``SYMMETRY_CHECK_PAIRS`` seeded pairs, each with a relabelling of its own drawn from the whole
    group (any order of the places; any renaming of the symbols the codes use): the feedback of the
    pair must be the feedback of the pair relabelled (which may lie outside the code spaces). A
    sample finds a claim that fails for many pairs; one failing for a rare pair may pass.
    """
    declared = built(game, "symmetries", lambda: frozenset(game.symmetries))
    kinds = sorted(declared & game.feedback_model.invariant_under)
    if game.caches.symmetries_checked or not kinds:
        return
    guesses, secrets = game.guesses, game.secrets
    rng = np.random.default_rng(SYMMETRY_CHECK_SEED)
    count = SYMMETRY_CHECK_PAIRS
    pairs = guesses[rng.integers(len(guesses), size=count)], secrets[rng.integers(len(secrets), size=count)]
    before = np.diagonal(game.feedback(*pairs))
    for kind in kinds:
        size = pairs[0].shape[1] if kind == "positions" else game.symbol_count
        relabelling = np.argsort(rng.random((count, size)), axis=1)
        if kind == "positions":
            images = [np.take_along_axis(codes, relabelling, axis=1) for codes in pairs]
        else:
            images = [np.take_along_axis(relabelling, codes.astype(np.intp), axis=1) for codes in pairs]
        images = [image.astype(np.uint8) for image in images]
        after = np.diagonal(game.feedback(*images))
        if np.array_equal(before, after):
            continue
        at = int(np.argmax(before != after))
        guess, secret, guess_image, secret_image = (
            game.format_code(codes[at]) for codes in (*pairs, *images)
        )
        raise MoocowError(
            f"{game.spec}: its declared symmetry {kind!r} does not hold: guess {guess} scores "
            f"{game.format_feedback(int(before[at]))} against secret {secret}, but {guess_image} "
            f"scores {game.format_feedback(int(after[at]))} against {secret_image}, the same with its "
            f"{kind} relabelled"
        )
    game.caches.symmetries_checked = True


def check_wins(game: Game, rows: np.ndarray, secrets: np.ndarray) -> None:
    """Each row of ``rows`` (the feedback of every guess against one of ``secrets``, by index)
    holds the win at the secret's own guess and nowhere else, or the first pair that breaks the
    rule is one line."""
    wins = rows == game.win
    own = game.secret_guess_index[secrets]
    places = np.arange(len(rows))
    broken = ~wins[places, own] | (wins.sum(axis=1) != 1)
    if not broken.any():
        return
    row = int(np.argmax(broken))
    secret = game.format_code(game.secrets[secrets[row]])
    winner = game.format_feedback(game.win)
    if not wins[row, own[row]]:
        gets = game.format_feedback(int(rows[row, own[row]]))
        problem = f"secret {secret} scores {gets} against itself, not the win ({winner})"
    else:
        others = wins[row].copy()
        others[own[row]] = False
        other = game.format_code(game.guesses[int(np.argmax(others))])
        problem = f"guess {other} scores the win ({winner}) against secret {secret}"
    raise MoocowError(f"{game.spec}: {problem}; the winning answer must come from the secret itself only")


def _array(value: Any) -> np.ndarray | None:
    """``value`` as an array if it is one, a list or a tuple of equal rows; else ``None``."""
    if not isinstance(value, np.ndarray | list | tuple):
        return None
    try:  # rows of unequal lengths are a ValueError
        return np.asarray(value)
    except ValueError:
        return None


def _small_whole_numbers(array: np.ndarray) -> bool:
    """Whether every entry is a whole number a code may hold (``0..LARGEST_SYMBOL``)."""
    return array.dtype.kind in "iu" and (
        array.size == 0 or (array.min() >= 0 and array.max() <= LARGEST_SYMBOL)
    )


def _described(value: Any) -> str:
    """What a game's method gave, for the message saying it is wrong."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype} of shape {value.shape}"
    if isinstance(value, str):  # unstripped: a line end in it is the fault
        return repr(value) if len(value) <= SHOWN else repr(value[: SHOWN - 3] + "...")
    return f"a {type(value).__name__}"
