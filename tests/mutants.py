"""Plant known bugs one at a time and show the tests catch each: ``python -m tests.mutants``.

Run by hand, never by the suite (each mutant runs its tests in a copy of the tree). A mutant that
its tests pass is printed as ``MISSED`` and the exit status is 1: a test that could not fail.
Give names to run only those: ``python -m tests.mutants waiting tag``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    """One bug: ``before`` replaced by ``after`` in ``path`` (once), and the tests that must catch it."""

    name: str
    path: str
    before: str
    after: str
    tests: tuple[str, ...]


MUTANTS = (
    Mutant(
        "waiting",
        "moocow/web/workers.py",
        "WAITING = 8\n",
        "WAITING = 1000\n",
        ("tests/test_web_workers.py",),
    ),
    Mutant(
        "chain",
        "moocow/runner/chain.py",
        'mac.update(before.encode("ascii") + b"\\n" + body)',
        "mac.update(body)",
        ("tests/test_runner_verify.py::test_each_line_signs_the_one_before_it_as_docs_runner_md_says",),
    ),
    Mutant(
        "tag",
        "moocow/web/tokens.py",
        "if not hmac.compare_digest(tag, _tag(key, spec, sealed)):",
        "if not hmac.compare_digest(tag, tag):",
        ("tests/test_web_tokens.py",),
    ),
    Mutant(
        "system-v",
        "moocow/sandbox/seccomp.py",
        "                 29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 220, 41, 53),",
        "                 41, 53),",
        ("tests/test_seccomp.py::test_the_deny_list_is_every_named_call_and_no_other",),
    ),
    Mutant(
        "socket",
        "moocow/sandbox/seccomp.py",
        "71, 220, 41, 53),",
        "71, 220),",
        ("tests/test_seccomp.py",),
    ),
)


def copy_of_tree(into: Path) -> Path:
    """The work tree's files (tracked and new, not ignored) copied into ``into``."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def tests_fail(mutant: Mutant | None, tests: tuple[str, ...]) -> bool:
    """Whether ``tests`` fail in a copy of the tree with ``mutant`` planted (``None``: as it is)."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as folder:
        tree = copy_of_tree(Path(folder))
        if mutant is not None:
            target = tree / mutant.path
            text = target.read_text()
            if text.count(mutant.before) != 1:
                raise SystemExit(
                    f"{mutant.name}: {mutant.path} no longer has its line once: update tests/mutants.py"
                )
            target.write_text(text.replace(mutant.before, mutant.after))
        command = [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *tests]
        return subprocess.run(command, cwd=tree, capture_output=True, text=True).returncode != 0


def main(names: list[str]) -> int:
    chosen = [mutant for mutant in MUTANTS if not names or mutant.name in names]
    every_test = tuple(dict.fromkeys(test for mutant in chosen for test in mutant.tests))
    if tests_fail(None, every_test):
        print(f"the tests fail without a mutant: {' '.join(every_test)}")
        return 2
    missed = 0
    for mutant in chosen:
        found = tests_fail(mutant, mutant.tests)
        missed += not found
        print(f"{'caught' if found else 'MISSED'}  {mutant.name}: {mutant.path}", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
