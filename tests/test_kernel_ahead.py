"""The kernel's entry points built ahead of time: loaded without numba, told apart by the kinds of
their arguments, and replaced by numba wherever a build fails or a module is damaged."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from moocow.engine.kernel import ahead, stamp
from moocow.engine.kernel.entries import Entry, describe
from moocow.optimal.kernel import entries, store
from moocow.optimal.kernel.set_store import SetStore
from moocow.optimal.kernel_search import as_kernel_set
from moocow.optimal.prove import prove_optimal
from moocow.plugins import load_game
from moocow.plugins.mastermind import Mastermind
from moocow.trees.files import tree_to_dict

CHECK_NUMBA = "import atexit, sys; atexit.register(lambda: print('numba loaded:', 'numba' in sys.modules))"


NO_PYCC = importlib.util.find_spec("numba.pycc") is None


@pytest.mark.skipif(NO_PYCC, reason="this numba cannot build ahead of time: numba's cache serves")
def test_a_proof_in_a_fresh_process_loads_no_numba() -> None:
    """Once built, the whole ``moocow optimal`` command runs without importing numba at all."""
    expected = prove_optimal(Mastermind(pegs=3, colors=4))  # builds what is not built yet
    program = f"{CHECK_NUMBA}; from moocow.cli import main; main()"
    command = [sys.executable, "-c", program, "optimal", "mastermind:pegs=3,colors=4"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert f"{expected.total} guesses in total, proven optimal" in done.stdout
    assert done.stdout.strip().endswith("numba loaded: False")


@pytest.mark.parametrize("hard", [False, True])
def test_a_wordle_proof_loads_no_numba_and_can_be_stopped(hard: bool, tmp_path: Path) -> None:
    """Wordle's search (``kernel.wide``), its marks table and hard mode's filter are built ahead
    of time too: a small Wordle's whole proof runs without numba."""
    words = ["crane", "crate", "trace", "react", "cater", "caret", "carte", "eerie", "geese", "speed"]
    (tmp_path / "answers.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "guesses.txt").write_text("slate\nsalet\ntrope\ndepth\n")
    spec = f"wordle:answers={tmp_path / 'answers.txt'},guesses={tmp_path / 'guesses.txt'}"
    spec += ",hard=true" if hard else ""
    expected = prove_optimal(load_game(spec))
    program = f"{CHECK_NUMBA}; from moocow.cli import main; main()"
    command = [sys.executable, "-c", program, "optimal", spec, "--workers", "1"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert f"{expected.total} guesses in total" in done.stdout
    assert done.stdout.strip().endswith("numba loaded: False")
    assert entries.WIDE_LEAST_TOTAL.releases_gil


def _stored_lookup() -> tuple[SetStore, np.ndarray]:
    kept = SetStore(slots=4, pool=8)
    candidates = np.array([3, 5, 8], dtype=np.int32)
    kept.call(lambda parts: store.save(parts, candidates, 1, 17, 4) or 0)
    return kept, candidates


def test_a_failed_build_leaves_its_reason_and_numba_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that fails (here: no compiler) is tried once; its reason is kept, and numba's
    code gives the same answers, in this process and the next."""
    monkeypatch.setattr(ahead, "cache_places", lambda: (tmp_path,))
    builds: list[str] = []

    def failing(request: str) -> list[str]:
        builds.append(request)
        return [sys.executable, "-c", "raise SystemExit('error: no C compiler here')"]

    monkeypatch.setattr(ahead, "build_command", failing)
    kept, candidates = _stored_lookup()
    for _ in range(2):  # a fresh entry each time, as in a new process
        lookup = Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)
        assert lookup(kept.parts(), candidates, 1) == (17, 4)
    assert len(builds) == 1
    (failure,) = tmp_path.glob("lookup_*.failed")
    assert "no C compiler here" in failure.read_text()


@pytest.mark.skipif(NO_PYCC, reason="this numba cannot build ahead of time: numba's cache serves")
def test_a_build_leaves_nothing_in_the_temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's builder leaves its compiler check's folders (``temp.c``, ``temp.o``) and its build
    folder in the temp folder: 900 of them piled up in ``/tmp``. A build now keeps them in a
    folder of its own beside the module, removed with it."""
    cache, temp = tmp_path / "cache", tmp_path / "temp"
    cache.mkdir()
    temp.mkdir()
    monkeypatch.setattr(ahead, "cache_places", lambda: (cache,))
    monkeypatch.setenv("TMPDIR", str(temp))
    kept, candidates = _stored_lookup()
    lookup = Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)
    assert lookup(kept.parts(), candidates, 1) == (17, 4)
    assert [path.name.endswith(ahead.SUFFIX) for path in cache.iterdir()] == [True], list(cache.iterdir())
    assert list(temp.iterdir()) == []


@pytest.mark.skipif(NO_PYCC, reason="this numba cannot build ahead of time: numba's cache serves")
def test_a_module_built_before_serves_where_nothing_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sandboxed player that uses moocow can write no cache: the modules built before, which it
    can read, still serve it (it waited seconds for numba to compile the marks table, and timed
    out), and it builds nothing."""
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setattr(ahead, "cache_places", lambda: (cache,))
    kept, candidates = _stored_lookup()
    assert Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)(kept.parts(), candidates, 1)
    monkeypatch.setattr(ahead, "cache_directory", lambda: None)
    monkeypatch.setattr(ahead, "cache_places", lambda: (tmp_path / "absent", cache))
    monkeypatch.setattr(ahead, "_build", lambda *arguments: pytest.fail("built where nothing can be written"))
    lookup = Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)
    assert ahead.load(lookup, describe((kept.parts(), candidates, 1))) is not None
    assert lookup(kept.parts(), candidates, 1) == (17, 4)


@pytest.mark.skipif(NO_PYCC, reason="this numba cannot build ahead of time: numba's cache serves")
def test_a_module_built_in_the_packages_place_serves_a_player_whose_home_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sandboxed player reads the package's modules and may write its own home: it built every
    module again there, seconds of CPU on its first guess (a Wordle player lost each round to its
    CPU limit). A module built anywhere it can read serves it, and nothing is built."""
    package, home = tmp_path / "package", tmp_path / "home"
    package.mkdir()
    home.mkdir()
    monkeypatch.setattr(ahead, "cache_places", lambda: (package,))
    kept, candidates = _stored_lookup()
    assert Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)(kept.parts(), candidates, 1)
    monkeypatch.setattr(ahead, "cache_places", lambda: (package, home))
    monkeypatch.setattr(ahead, "cache_directory", lambda: home)  # the player's view: the home is its own
    monkeypatch.setattr(ahead, "_build", lambda *arguments: pytest.fail("built again in the home"))
    lookup = Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)
    assert lookup(kept.parts(), candidates, 1) == (17, 4)
    assert list(home.iterdir()) == []


def test_a_damaged_module_is_set_aside_for_numba(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module that does not load (a truncated file) is removed and its reason kept; numba serves."""
    monkeypatch.setattr(ahead, "cache_places", lambda: (tmp_path,))
    kept, candidates = _stored_lookup()
    lookup = Entry(entries.LOOKUP.module, "lookup", returns=entries.LOOKUP.returns)
    name = ahead.module_name(lookup, describe((kept.parts(), candidates, 1)))
    damaged = tmp_path / f"{name}{ahead.SUFFIX}"
    damaged.write_bytes(b"\x7fELF truncated")
    assert lookup(kept.parts(), candidates, 1) == (17, 4)
    assert not damaged.exists()
    assert "does not load" in (tmp_path / f"{name}.failed").read_text()


def test_the_same_proof_with_every_entry_served_by_numba(serve_anew: Callable[[bool], None]) -> None:
    """The two ways of serving the kernel find the same optimum and the same tree."""
    game = Mastermind(pegs=3, colors=4)
    built = prove_optimal(game)
    serve_anew(False)
    jitted = prove_optimal(game)
    assert jitted.total == built.total and built.root is not None and jitted.root is not None
    assert tree_to_dict(game, jitted.root, "optimal") == tree_to_dict(game, built.root, "optimal")


def test_kinds_tell_apart_whatever_compiled_code_would_misread() -> None:
    """dtype, dimensions, layout, read-only arrays and number types are all part of a kind."""
    square = np.zeros((3, 3), dtype=np.int64)
    read_only = square.copy()
    read_only.flags.writeable = False
    variants = [square, square.astype(np.int32), square.ravel(), square.T[:, :2], square[:, ::2], read_only]
    kinds = [describe(value) for value in variants]
    assert len(set(kinds)) == len(kinds)
    assert describe(square.T)[3] == "F" and describe(square[:, ::2])[3] == "A"
    assert len({describe(7), describe(True), describe(np.int32(7)), describe(None)}) == 4
    assert describe((square, 1)) == ("tuple", (describe(square), describe(1)))
    with pytest.raises(TypeError):
        describe([1, 2])
    with pytest.raises(TypeError):
        describe(2.5)


def test_a_module_is_named_by_its_sources_and_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another CPU or other sources build another module; stale modules leave the package's cache."""
    kind = describe((np.zeros(2, dtype=np.int64),))
    here = ahead.module_name(entries.LOOKUP, kind)
    monkeypatch.setattr(ahead, "host_cpu", lambda: "another CPU")
    elsewhere = ahead.module_name(entries.LOOKUP, kind)
    monkeypatch.setattr(ahead, "package_stamp", lambda: "0" * 64)
    edited = ahead.module_name(entries.LOOKUP, kind)
    assert len({here, elsewhere, edited}) == 3
    monkeypatch.setattr(ahead, "IN_TREE", tmp_path)
    for name in (here, edited):
        (tmp_path / f"{name}{ahead.SUFFIX}").write_bytes(b"")
    (tmp_path / f"{here}.failed").write_text("reason\n")
    monkeypatch.setattr(ahead, "package_stamp", stamp.package_stamp)
    ahead.prune(tmp_path)
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == sorted([f"{here}{ahead.SUFFIX}", f"{here}.failed"])


def test_sets_reach_the_kernel_as_one_kind_however_they_arrive() -> None:
    """Unaligned or read-only candidates (as Dask delivers them) are copied into the one kind the
    kernel is built for, values unchanged."""
    raw = np.zeros(4 * 5 + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.int32)
    unaligned[:] = [3, 5, 8, 13, 21]
    read_only = np.arange(5, dtype=np.int64)
    read_only.flags.writeable = False
    plain = np.arange(5, dtype=np.int32)
    assert not unaligned.flags.aligned
    for arriving in (unaligned, read_only, plain):
        kernel_set = as_kernel_set(arriving)
        assert describe(kernel_set) == describe(plain)
        assert kernel_set.tolist() == arriving.tolist()
    assert as_kernel_set(plain) is plain
