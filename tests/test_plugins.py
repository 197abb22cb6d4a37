"""The plugin manager and the game registry: built-ins, entry points, local files, broken plugins."""

from __future__ import annotations

import doctest
import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from moocow.engine.errors import MoocowError
from moocow.engine.game import Codes, Game
from moocow.engine.params import Param
from moocow.plugins import (
    BUILTIN_PLUGINS,
    LOAD_PLUGINS_VARIABLE,
    PluginManager,
    game_classes,
    get_plugin_manager,
    hookimpl,
    load_game,
    load_plugin_file,
    plugin_errors,
    reset_plugins,
)
from moocow.plugins import manager as manager_module
from moocow.plugins.manager import selected_plugins

ROOT = Path(__file__).resolve().parents[1]
JOTTO = ROOT / "examples" / "jotto"
JOTTO_MODULE = JOTTO / "moocow_jotto" / "__init__.py"
BUILTINS_PRESENT = all(importlib.util.find_spec(name) for name in BUILTIN_PLUGINS)


@pytest.fixture(autouse=True)
def fresh_plugins(monkeypatch: pytest.MonkeyPatch):
    """Each test gets a new manager that loads no entry point installed on the machine."""
    monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "")
    reset_plugins()
    modules = set(sys.modules)
    yield
    reset_plugins()
    for name in set(sys.modules) - modules:
        if name.startswith("moocow_plugin_"):  # modules imported from plugin files
            del sys.modules[name]


# ---------------------------------------------------------------------- small games of our own
class Pick(Game):
    """Guess which of ``n`` symbols was picked: the smallest game there is."""

    name = "pick"
    params = (Param("n", int, 3, "how many symbols", minimum=2, maximum=9),)
    feedback_fields = ("hit",)

    @property
    def code_length(self) -> int:
        return 1

    def build_secrets(self) -> Codes:
        return np.arange(self.values["n"], dtype=np.uint8)[:, None]

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return (guesses[:, None, 0] == secrets[None, :, 0]).astype(np.uint8)

    def parse_code(self, text: str) -> np.ndarray:
        return np.array([int(text)], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return str(int(code[0]))


class OtherPick(Pick):
    """A different class claiming the same name as ``Pick``."""


class Alpha(Pick):
    name = "alpha"


class Unfinished(Game):
    """Named but abstract: it implements none of the game methods."""

    name = "unfinished"


class GamesPlugin:
    """A plugin object that registers the given classes, as a third-party module would."""

    def __init__(self, *classes: object) -> None:
        self.classes = classes

    @hookimpl
    def register_games(self, register) -> None:
        for cls in self.classes:
            register(cls)


class RaisingPlugin:
    """A plugin whose hook registers one game, then fails."""

    @hookimpl
    def register_games(self, register) -> None:
        register(Alpha)
        raise RuntimeError("no games today")


def register(*plugins: object) -> None:
    for plugin in plugins:
        get_plugin_manager().register(plugin)


# ---------------------------------------------------------------------- plugin files
GOOD_FILE = """
import numpy as np
from moocow.engine.game import Game
from moocow.plugins import hookimpl

class Coin(Game):
    name = "coin"
    feedback_fields = ("hit",)
    code_length = 1

    def build_secrets(self):
        return np.array([[0], [1]], dtype=np.uint8)

    def feedback(self, guesses, secrets):
        return (guesses[:, None, 0] == secrets[None, :, 0]).astype(np.uint8)

    def parse_code(self, text):
        return np.array(["HT".index(text.strip().upper())], dtype=np.uint8)

    def format_code(self, code):
        return "HT"[int(code[0])]

@hookimpl
def register_games(register):
    register(Coin)
"""

BROKEN_FILE = """
raise RuntimeError("this plugin is\\nbroken")
"""

MISSPELLED_FILE = """
from moocow.plugins import hookimpl

@hookimpl
def register_game(register):
    pass
"""

UNMARKED_FILE = """
def register_games(register):
    pass
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- built-ins
def test_builtins_are_listed_in_one_tuple_by_name():
    """The five built-in games are ordinary plugin modules, listed once, sorted."""
    assert sorted(BUILTIN_PLUGINS) == list(BUILTIN_PLUGINS)
    assert [name.rsplit(".", 1)[1] for name in BUILTIN_PLUGINS] == [
        "bottles",
        "digits",
        "mastermind",
        "wordle",
        "words",
    ]


def needs(module: str):
    """Skip until the other engineer's built-in module exists."""
    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=f"{module} is not written yet")


@pytest.mark.parametrize("module", [pytest.param(name, marks=needs(name)) for name in BUILTIN_PLUGINS])
def test_builtin_module_registers_its_game_without_errors(module: str):
    """Each built-in module registers its game through the hook, like any plugin."""
    game = module.rsplit(".", 1)[1]
    assert game_classes()[game].__module__ == module
    assert not any(line.startswith(f"plugin {module} ") for line in plugin_errors())


@needs("moocow.plugins.bottles")
@needs("moocow.plugins.mastermind")
def test_builtin_specs_load_with_their_parameters():
    """Specs name a game and set its parameters; the canonical spec comes back."""
    assert load_game("bottles:n=7").values["n"] == 7
    assert load_game("mastermind:pegs=5,colors=8").spec == "mastermind:pegs=5,colors=8"
    assert load_game("mastermind").spec == "mastermind"
    with pytest.raises(MoocowError, match=r"^bottles: unknown parameter size \(accepted: n\)$"):
        load_game("bottles:size=7")
    with pytest.raises(
        MoocowError, match=r"^mastermind: parameter colors must be a whole number, not 'many'$"
    ):
        load_game("mastermind:colors=many")


@pytest.mark.skipif(not BUILTINS_PRESENT, reason="the built-in game modules are not all written yet")
def test_unknown_game_names_the_builtins():
    assert plugin_errors() == []
    with pytest.raises(MoocowError) as error:
        load_game("chess")
    assert str(error.value) == "unknown game 'chess' (known: bottles, digits, mastermind, wordle, words)"


def test_module_that_cannot_be_imported_is_a_recorded_error():
    """A missing or broken built-in costs its own games and one line, not the process."""
    manager = PluginManager()
    manager.load_modules(["moocow_test_no_such_module"])
    assert manager.errors == [
        "plugin moocow_test_no_such_module failed to load: "
        "ModuleNotFoundError: No module named 'moocow_test_no_such_module'"
    ]


# ---------------------------------------------------------------------- specs
def test_load_game_reads_the_spec_parameters():
    """``name:key=value`` builds the game with converted values and defaults filled in."""
    register(GamesPlugin(Pick))
    assert load_game("pick").values == {"n": 3}
    game = load_game("pick:n=5")
    assert game.values == {"n": 5}
    assert game.spec == "pick:n=5"
    assert load_game(game) is game


def test_unknown_game_lists_the_known_ones():
    reset_plugins(PluginManager())  # no built-ins: the list below is exactly ours
    register(GamesPlugin(Pick, Alpha))
    with pytest.raises(MoocowError) as error:
        load_game("nope:n=3")
    assert str(error.value) == "unknown game 'nope' (known: alpha, pick)"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pick:size=3", "pick: unknown parameter size (accepted: n)"),
        ("pick:n=x", "pick: parameter n must be a whole number, not 'x'"),
        ("pick:n=1_0", "pick: parameter n must be a whole number, not '1_0'"),
        ("pick:n=\u0663", "pick: parameter n must be a whole number, not '\u0663'"),
        ("pick:n=\uff12", "pick: parameter n must be a whole number, not '\uff12'"),
        ("pick:n=12", "pick: parameter n must be at most 9, not 12"),
        ("pick:n", "malformed parameter 'n' in 'pick:n': expected key=value"),
    ],
)
def test_bad_parameters_give_one_clear_line(spec: str, message: str):
    register(GamesPlugin(Pick))
    with pytest.raises(MoocowError) as error:
        load_game(spec)
    assert str(error.value) == message


# ---------------------------------------------------------------------- the registry
def test_game_classes_are_sorted_by_name_whatever_the_registration_order():
    register(GamesPlugin(Pick), GamesPlugin(Alpha))
    names = list(game_classes())
    assert names == sorted(names)
    assert {"alpha", "pick"} <= set(names)


def test_first_registered_plugin_keeps_a_duplicate_name():
    """pluggy calls the last plugin first; the registry still lets the first one keep the name."""
    register(GamesPlugin(Pick), GamesPlugin(OtherPick))
    assert game_classes()["pick"] is Pick
    assert any("game 'pick' ignored: already registered by plugin" in line for line in plugin_errors())


def test_same_class_registered_twice_is_not_an_error():
    register(GamesPlugin(Pick), GamesPlugin(Pick, Alpha))
    assert game_classes()["pick"] is Pick
    assert not any("ignored" in line for line in plugin_errors())


def test_bad_game_classes_are_recorded_and_skipped():
    """Not a Game, no name, abstract: each costs one recorded line; the good class stays."""
    nameless = type("Nameless", (Pick,), {"name": None})
    register(GamesPlugin(dict, nameless, Unfinished, Pick))
    assert game_classes()["pick"] is Pick
    problems = [line for line in plugin_errors() if not line.startswith("plugin moocow.plugins.")]
    assert len(problems) == 3
    assert "is not a subclass of moocow.engine.game.Game" in problems[0]
    assert "game class Nameless needs a name" in problems[1]
    assert "game 'unfinished' (Unfinished) does not implement" in problems[2]
    assert "build_secrets" in problems[2]


BAD_CLASS_ATTRIBUTES = {
    "no feedback fields": ({"feedback_fields": ()}, "feedback_fields must be a tuple of names of letters"),
    "a field not a word": ({"feedback_fields": ("in place",)}, "feedback_fields must be a tuple of names"),
    "a list of fields": ({"feedback_fields": ["hit"]}, "feedback_fields must be a tuple of names"),
    "fields alike": (
        {"feedback_fields": ("bulls", "blacks")},
        "feedback_fields must begin with different letters",
    ),
    "params not Params": (
        {"params": ({"name": "n"},)},
        "params must be a tuple of moocow.engine.params.Param",
    ),
    "a name twice": (
        {"params": (Param("n", int, 3, ""), Param("n", int, 4, ""))},
        "a parameter name is given twice (n, n)",
    ),
    "a default out of range": (
        {"params": (Param("n", int, 1, "", minimum=2),)},
        "the default of parameter n is refused: pick: parameter n must be at least 2, not 1",
    ),
    "a default of text": (
        {"params": (Param("n", int, "3", ""),)},
        "parameter n has a default of another type, '3'",
    ),
    "a default not a choice": (
        {"params": (Param("kind", str, "x", "", choices=("a", "b")),)},
        "must be one of a, b, not 'x'",
    ),
}


@pytest.mark.parametrize("fault", list(BAD_CLASS_ATTRIBUTES))
def test_a_game_class_whose_fields_or_params_cannot_work_is_recorded_and_skipped(fault: str):
    """Feedback is typed and shown by its fields' initials, and a spec that leaves a parameter out
    gets its default unchecked: a class that gets these wrong costs one line, not a wrong game."""
    attributes, message = BAD_CLASS_ATTRIBUTES[fault]
    register(GamesPlugin(type("Faulty", (Pick,), attributes), Alpha))
    assert game_classes()["alpha"] is Alpha and game_classes().get("pick") is None
    (problem,) = [line for line in plugin_errors() if not line.startswith("plugin moocow.plugins.")]
    assert "game 'pick': " in problem and message in problem, problem


def test_a_hook_that_raises_loses_only_its_own_games():
    register(RaisingPlugin(), GamesPlugin(Pick))
    assert "pick" in game_classes()
    assert "alpha" not in game_classes()
    assert any(
        re.fullmatch(r"plugin \S+ failed to register games: RuntimeError: no games today", line)
        for line in plugin_errors()
    )


def test_reset_plugins_starts_over():
    register(GamesPlugin(Pick))
    first = get_plugin_manager()
    reset_plugins()
    assert get_plugin_manager() is not first
    assert "pick" not in game_classes()


# ---------------------------------------------------------------------- local files
def test_local_plugin_file_registers_its_game(tmp_path: Path):
    path = write(tmp_path, "coin.py", GOOD_FILE)
    load_plugin_file(path)
    load_plugin_file(path)  # a second load of the same file changes nothing
    coin = load_game("coin")
    assert coin.format_code(coin.secrets[1]) == "T"
    assert not any("coin" in line for line in plugin_errors())


def test_a_named_file_whose_game_is_turned_away_is_refused_as_a_strategy_is(tmp_path: Path):
    """One rule for a file named with ``--plugin``: a game it registers under a built-in's name is
    status 2 in one line, as such a strategy is, and the file is left out; the built-in stays."""
    from typer.testing import CliRunner

    from moocow.cli import app

    path = write(tmp_path, "mine.py", GOOD_FILE.replace('name = "coin"', 'name = "bottles"')).resolve()
    result = CliRunner().invoke(app, ["--plugin", str(path), "evaluate", "bottles:n=3"])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    refused = "game 'bottles' ignored: already registered by plugin moocow.plugins.bottles"
    assert result.stderr.splitlines() == [f"error: plugin {path}: {refused}"]
    assert not get_plugin_manager().has_plugin(str(path))
    assert game_classes()["bottles"].__module__ == "moocow.plugins.bottles"


def test_broken_plugin_file_is_one_recorded_line_and_others_still_work(tmp_path: Path):
    register(GamesPlugin(Pick))
    broken = write(tmp_path, "broken.py", BROKEN_FILE)
    load_plugin_file(broken)
    load_plugin_file(write(tmp_path, "coin.py", GOOD_FILE))
    assert f"plugin {broken} failed to load: RuntimeError: this plugin is broken" in plugin_errors()
    assert {"coin", "pick"} <= set(game_classes())
    assert not any(module.startswith("moocow_plugin_broken") for module in sys.modules)


def test_misspelled_hook_is_a_recorded_error(tmp_path: Path):
    path = write(tmp_path, "typo.py", MISSPELLED_FILE)
    load_plugin_file(path)
    hooks = "moocow's hooks: register_games, register_strategies"
    assert f"plugin {path} failed to load: unknown hook register_game ({hooks})" in plugin_errors()
    assert not get_plugin_manager().has_plugin(str(path))
    get_plugin_manager().check_pending()  # the offending plugin is gone, so this passes now


def test_hook_without_the_marker_is_a_recorded_error(tmp_path: Path):
    path = write(tmp_path, "unmarked.py", UNMARKED_FILE)
    load_plugin_file(path)
    hooks = "moocow's hooks: register_games, register_strategies"
    assert f"plugin {path} failed to load: no @hookimpl function ({hooks})" in plugin_errors()


def test_missing_plugin_file_is_a_one_line_error(tmp_path: Path):
    with pytest.raises(MoocowError, match=r"^plugin file '.*nowhere\.py' not found$"):
        load_plugin_file(tmp_path / "nowhere.py")


def test_every_error_is_one_line(tmp_path: Path):
    load_plugin_file(write(tmp_path, "broken.py", BROKEN_FILE))
    load_plugin_file(write(tmp_path, "typo.py", MISSPELLED_FILE))
    register(RaisingPlugin())
    errors = plugin_errors()
    assert len(errors) >= 3
    assert all("\n" not in line for line in errors)


# ---------------------------------------------------------------------- entry points, faked
@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two entry points, one good and one broken, without installing anything."""
    module = type(sys)("moocow_test_entry_point")
    module.plugin = GamesPlugin(Pick)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    points = [
        importlib.metadata.EntryPoint("good", "moocow_test_entry_point:plugin", "moocow"),
        importlib.metadata.EntryPoint("broken", "moocow_test_no_such_module", "moocow"),
    ]
    monkeypatch.setattr(manager_module, "entry_points", lambda group: points if group == "moocow" else [])


@pytest.mark.usefixtures("fake_entry_points")
def test_unset_variable_loads_every_entry_point_and_survives_a_broken_one(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(LOAD_PLUGINS_VARIABLE)
    assert "pick" in game_classes()
    assert (
        "plugin broken failed to load: ModuleNotFoundError: No module named 'moocow_test_no_such_module'"
        in plugin_errors()
    )


@pytest.mark.usefixtures("fake_entry_points")
def test_empty_variable_loads_no_entry_point():
    assert "pick" not in game_classes()
    assert not any(line.startswith(("plugin good", "plugin broken")) for line in plugin_errors())


@pytest.mark.usefixtures("fake_entry_points")
def test_variable_selects_entry_points_by_name(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "good, typo")
    assert "pick" in game_classes()
    errors = plugin_errors()
    assert not any(line.startswith("plugin broken") for line in errors)
    assert f"plugin typo failed to load: no such entry point (named in {LOAD_PLUGINS_VARIABLE})" in errors


def test_installed_entry_points_are_read_only_where_declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A distribution on ``sys.path`` whose ``entry_points.txt`` has a ``[moocow]`` section is
    found through ``importlib.metadata``; one with other groups only is not, and then
    ``importlib.metadata`` is not even asked (its import is a tenth of a short command)."""
    info = tmp_path / "moocow_fake-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: moocow-fake\nVersion: 1.0\n")
    points = info / "entry_points.txt"
    points.write_text("[console_scripts]\nfake = moocow_fake:main\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: pytest.fail("asked"))
    assert manager_module.entry_points("moocow") == ()
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(tmp_path))
    points.write_text("[console_scripts]\nfake = moocow_fake:main\n\n[moocow]\nfake = moocow_fake:plugin\n")
    found = [point for point in manager_module.entry_points("moocow") if point.name == "fake"]
    assert [point.value for point in found] == ["moocow_fake:plugin"]


def test_selected_plugins_reads_the_variable():
    assert selected_plugins(None) is None
    assert selected_plugins("") == frozenset()
    assert selected_plugins(" jotto, other ,,") == {"jotto", "other"}


# ---------------------------------------------------------------------- the Jotto example
def jotto_feedback(game: Game, guess: str, secret: str) -> int:
    return int(game.feedback(game.parse_code(guess)[None], game.parse_code(secret)[None])[0, 0])


def test_jotto_scores_letters_in_common():
    load_plugin_file(JOTTO_MODULE)
    jotto = load_game("jotto")
    assert jotto_feedback(jotto, "about", "their") == 1  # t
    assert jotto_feedback(jotto, "black", "white") == 0
    assert jotto_feedback(jotto, "stamp", "tramp") == 4  # t, a, m, p wherever they are
    assert jotto.format_code(jotto.parse_code(" About ")) == "about"
    with pytest.raises(MoocowError, match="five different letters"):
        jotto.parse_code("hello")
    assert jotto_feedback(jotto, "heart", "earth") == 5  # anagrams: neither may be played
    with pytest.raises(MoocowError, match="not a valid guess"):
        jotto.guess_index("earth")


def test_jotto_wins_only_on_the_exact_word():
    """No two words share all their letters, so feedback equals ``win`` only on the diagonal."""
    load_plugin_file(JOTTO_MODULE)
    jotto = load_game("jotto")
    table = jotto.feedback(jotto.guesses, jotto.secrets)
    assert np.array_equal(table == jotto.win, np.eye(len(jotto.secrets), dtype=bool))
    module = sys.modules[type(jotto).__module__]
    assert module.without_anagrams(["steal", "about", "least"]) == ["about"]


def pip_installed(example: Path, work: Path) -> Path:
    """An example package installed by pip into a folder of ``work``, never into the venv."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not available")
    source = shutil.copytree(example, work / "source")  # setuptools writes build/ into the source tree
    site = work / "site"
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    if _builds_wheels_offline():
        command += ["--no-build-isolation", "--no-index"]
    started = time.perf_counter()
    result = subprocess.run([*command, str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    print(f"pip installed {example.name} in {time.perf_counter() - started:.1f}s")
    return site


@pytest.fixture(scope="module")
def jotto_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Jotto example installed by pip into a temporary directory."""
    return pip_installed(JOTTO, tmp_path_factory.mktemp("jotto"))


def _builds_wheels_offline() -> bool:
    """setuptools builds wheels itself from 70.1; before that it needs the ``wheel`` package."""
    try:
        major, minor = (int(part) for part in importlib.metadata.version("setuptools").split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def test_jotto_installed_with_pip_is_found_through_its_entry_point(
    jotto_site: Path, monkeypatch: pytest.MonkeyPatch
):
    """The example package's entry point makes ``jotto`` a game once its directory is on sys.path."""
    monkeypatch.syspath_prepend(str(jotto_site))
    monkeypatch.delitem(sys.modules, "moocow_jotto", raising=False)
    try:
        assert "jotto" not in game_classes()  # MOOCOW_LOAD_PLUGINS="" keeps it out
        monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "jotto")
        reset_plugins()
        assert get_plugin_manager().has_plugin("jotto")
        jotto = load_game("jotto")
        assert Path(sys.modules[type(jotto).__module__].__file__).is_relative_to(jotto_site)
        assert jotto_feedback(jotto, "about", "their") == 1
        assert jotto_feedback(jotto, "money", "honey") == 4
        assert jotto_feedback(jotto, "money", "money") == jotto.win
    finally:
        sys.modules.pop("moocow_jotto", None)


# ---------------------------------------------------------------------- the marks example, installed
MARKS = ROOT / "examples" / "marks_mastermind"


def test_marks_mastermind_installed_with_pip_is_found_through_its_entry_point(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
):
    """The package whose feedback is a mark per peg is a game once installed, like Jotto, and its
    game reads and shows marks (``GYBB``) through the model it declares."""
    site = pip_installed(MARKS, tmp_path_factory.mktemp("marks"))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "moocow_marks_mastermind", raising=False)
    try:
        monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "marks_mastermind")
        reset_plugins()
        game = load_game("marks_mastermind:pegs=3,colors=5")
        assert Path(sys.modules[type(game).__module__].__file__).is_relative_to(site)
        assert (len(game.secrets), len(game.guesses)) == (60, 125)
        guess, secret = game.parse_code("112")[None], game.parse_code("213")[None]
        assert (
            game.format_feedback(int(game.feedback(guess, secret)[0, 0])) == "BGY"
        )  # the 1 in place wins the green
        assert game.parse_feedback("-gy") == game.parse_feedback("BGY")
    finally:
        sys.modules.pop("moocow_marks_mastermind", None)


# ---------------------------------------------------------------------- the guide
GUIDE = ROOT / "docs" / "plugins.md"


def guide_text() -> str:
    """The manual's page "Writing a game plugin"."""
    return GUIDE.read_text()


def fenced(language: str) -> list[str]:
    """The guide's blocks in ``language``, but those the docs tests run (marked ``<!-- docs-test:
    run``), which are real by running rather than by being an example's."""
    found = re.findall(
        rf"^(<!-- docs-test: run[^\n]*\n)?```{language}\n(.*?)^```",
        guide_text(),
        flags=re.DOTALL | re.MULTILINE,
    )
    return [block for marker, block in found if not marker]


def test_guide_code_is_the_example_code():
    """Each Python and TOML block of the guide is copied verbatim from an example (Jotto, Bagels,
    the marks and the directions examples), or run by the docs tests."""
    blocks = fenced("python")
    assert blocks
    examples = [path.read_text() for path in (ROOT / "examples").rglob("*.py")]
    for block in blocks:
        assert any(block in example for example in examples), block
    toml = fenced("toml")
    assert toml
    packages = [path.read_text() for path in (ROOT / "examples").glob("*/pyproject.toml")]
    for block in toml:
        assert any(block in package for package in packages), block


def test_guide_session_runs(monkeypatch: pytest.MonkeyPatch):
    """The guide's interactive session gives the output it shows."""
    monkeypatch.chdir(ROOT)
    sessions = fenced("pycon")
    assert sessions
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, session in enumerate(sessions):
        runner.run(parser.get_doctest(session, {}, f"session {number}", str(GUIDE), 0))
    assert runner.summarize(verbose=False).failed == 0
