"""The project's own promises: ruff-clean code, and a README whose test command is the one CI runs."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_check_and_format_are_clean() -> None:
    """`ruff check` and `ruff format --check` pass on the whole tree."""
    for args in (("check", "."), ("format", "--check", ".")):
        result = _ruff(*args)
        assert result.returncode == 0, result.stdout + result.stderr


def test_readme_test_command_is_what_ci_runs() -> None:
    """The README's test command appears, word for word, as the command .ci/run executes."""
    readme = (ROOT / "README.md").read_text()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    command = next(line for line in ci_lines if "pytest" in line)
    assert command in readme


def test_package_exports_the_api() -> None:
    """The lazy names of ``moocow`` are exactly ``moocow.api.__all__`` (kept apart: players import light)."""
    import moocow
    import moocow.api

    assert set(moocow.api.__all__) == moocow._API


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on the package under ``root``, with the contract in ``root``'s pyproject.toml."""
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_layers_import_only_downward() -> None:
    """The layer contract in pyproject.toml holds: no module imports from a layer above its own."""
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def _copy_with_import(tmp_path: Path, module: str, line: str) -> subprocess.CompletedProcess[str]:
    """import-linter on a copy of the package and its contracts, with ``line`` added to ``module``."""
    for source in (ROOT / "moocow").rglob("*.py"):
        copy = tmp_path / source.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(source.read_text())
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    changed = tmp_path / module
    changed.write_text(changed.read_text() + f"\n{line}  # noqa\n")
    return _lint_imports(tmp_path)


def test_an_upward_import_breaks_the_layers(tmp_path: Path) -> None:
    """A copy of the package whose engine imports a game is refused, naming the import."""
    wordle = "from moocow.plugins.wordle import Wordle"
    result = _copy_with_import(tmp_path, "moocow/engine/position.py", wordle)
    assert result.returncode == 1
    assert "moocow.engine.position -> moocow.plugins.wordle" in result.stdout


def test_siblings_of_one_layer_importing_each_other_break_the_layers(tmp_path: Path) -> None:
    """Rooms written side by side in a layer (``|``) import nothing of each other: a Dask
    connection that reached into play at the table would be refused. (``:`` once let any sibling
    import any other unchecked.)"""
    result = _copy_with_import(tmp_path, "moocow/cluster/connection.py", "import moocow.play.table")
    assert result.returncode == 1
    assert "moocow.cluster.connection -> moocow.play.table" in result.stdout


def test_a_platform_built_on_another_breaks_their_independence(tmp_path: Path) -> None:
    """Each grading platform is a thin adapter over the course: PrairieLearn's grader that ran
    Gradescope's ``run_autograder`` (as it once did) is refused, and the course room would be where
    what they share goes."""
    gradescope = "from moocow.platforms.gradescope.grading import run_autograder"
    result = _copy_with_import(tmp_path, "moocow/platforms/prairielearn/grader.py", gradescope)
    assert result.returncode == 1
    assert "Each grading platform is a thin adapter" in result.stdout
    assert "moocow.platforms.prairielearn.grader -> moocow.platforms.gradescope.grading" in result.stdout


def test_the_course_knowing_a_platform_breaks_the_layers(tmp_path: Path) -> None:
    """The course is below every platform: a course that read Gradescope's results is refused."""
    results = "from moocow.platforms.gradescope.results import course_results"
    result = _copy_with_import(tmp_path, "moocow/course/report.py", results)
    assert result.returncode == 1
    assert "moocow.course.report -> moocow.platforms.gradescope.results" in result.stdout


def test_the_sandbox_knowing_a_game_breaks_its_contract(tmp_path: Path) -> None:
    """The jail may import the engine's errors, never its games: the layers allow it (the engine is
    below), the sandbox's own contract does not."""
    result = _copy_with_import(tmp_path, "moocow/sandbox/fouls.py", "from moocow.engine.game import Game")
    assert result.returncode == 1
    assert "The sandbox imports nothing of moocow" in result.stdout
    assert "moocow.sandbox.fouls -> moocow.engine.game" in result.stdout


def test_the_sandbox_contract_names_every_room_and_engine_module_it_keeps_out() -> None:
    """A room or engine module added later is kept out of the jail too: the contract names every
    room but the sandbox and the engine, and every engine module but errors and wording."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (jail,) = [contract for contract in contracts if contract.get("source_modules") == ["moocow.sandbox"]]
    package = ROOT / "moocow"

    def modules(folder: Path, prefix: str) -> set[str]:
        return {
            f"{prefix}.{path.stem}"
            for path in folder.iterdir()
            if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
        }

    rooms = modules(package, "moocow") - {"moocow.sandbox", "moocow.engine"}
    engine = modules(package / "engine", "moocow.engine") - {"moocow.engine.errors", "moocow.engine.wording"}
    assert sorted(jail["forbidden_modules"]) == sorted(rooms | engine)


def test_the_package_top_holds_only_the_api_and_rooms() -> None:
    """Every module lives in a room (a package); the top keeps the API and the entry points."""
    loose = sorted(path.name for path in (ROOT / "moocow").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "api.py"]


def test_no_two_classes_share_a_name() -> None:
    """One name for one class: a reader who meets ``Workers`` or ``Pace`` knows which is meant (the web's
    queue and the search's workers, the runner's pacing and the engine's, once had one name each)."""
    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "moocow").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
