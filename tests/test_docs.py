"""Every console example in README.md and docs/ is run, and must print what the page shows.

The pages follow one convention, so that an example is a test (as python-chess tests its README):

- A ```` ```console ```` block holds commands, each a line starting ``$ `` (a trailing ``\\``
  continues it), each followed by exactly what it prints, stdout and stderr together as a terminal
  shows them.
- A line that is only ``...`` stands for any number of lines the page leaves out.
- A block run with typed input is followed by a paragraph starting ``Typed at the prompts:`` that
  lists each typed line in backticks; piped input is not echoed, so each prompt is followed at
  once by moocow's answer, as the page shows it.
- A block that cannot be run here (it runs for days, or names the reader's own files) is preceded
  by ``<!-- docs-test: skip: REASON -->``. A block of syntax, not an example, is ```` ```text ````.
- A ```` ```pycon ```` block is a doctest, run in the same scratch folder. A ```` ```python ````
  block is preceded by one of ``<!-- docs-test: excerpt: PATH -->`` (its text is in that file of
  the checkout, verbatim), ``<!-- docs-test: run: NAME=PATH ... -->`` (run as a script in a folder
  where each NAME is a link to PATH; it must exit 0) or ``<!-- docs-test: skip: REASON -->``.
- A table preceded by ``<!-- docs-test: from: PATH -->`` is copied row for row from that file
  (timings come from ``bench/README.md``, with their machine and date); one preceded by
  ``<!-- docs-test: figures: KIND -->`` is checked against what moocow prints
  (``tests/test_docs_figures.py``).
- A page links only to files of the checkout and names no folder of one machine; every page is
  in ``mkdocs.yml``'s nav (``tests/test_docs_site.py`` builds the site strictly).

What may differ from run to run is normalised on both sides before comparing: durations (``0.99
s``), the ms/guess column of a standings table, trailing spaces, the line a machine's first
run says before it compiles, and the exact search's log line, which a loaded machine's slow run
writes. The commands run in a scratch
folder that sees the checkout's ``tests``, ``examples`` and ``tournament.toml`` and nothing beside
it (the course's word list is in the package), so files an example writes stay out of the checkout.

When output changes on purpose, ``python tests/test_docs.py --update`` rewrites every example
without ``...`` whose output changed beyond timings, from a fresh run; the diff is the review.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from moocow.engine.kernel.ahead import BUILD_NOTICE
from moocow.engine.warmup import NOTICE, WARM_UP_SECONDS

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SKIP = re.compile(r"<!-- docs-test: skip: (?P<reason>.+?) -->")
TYPED = "Typed at the prompts:"
SEEN_FROM_SCRATCH = ("tests", "examples", "tournament.toml")
TIMEOUT = 300

_DURATION = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s|min|h)\b")
_MS_PER_GUESS = re.compile(r"│ +\d+\.\d+ +│$")
_SEARCH_LOG = re.compile(r"after \d+ (?:s|min), searching")
"""The exact search's line off a terminal, due 10 s after its start: a loaded machine's only."""


@dataclass
class Command:
    """One ``$`` command of an example and the lines the page shows it printing."""

    text: str
    shown: list[str] = field(default_factory=list)
    first_output_line: int = 0
    """Index in the page's lines of the first shown output line (for ``--update``)."""


@dataclass
class Example:
    """A console block of a page."""

    page: Path
    line: int
    commands: list[Command]
    typed: str | None
    skip: str | None

    @property
    def name(self) -> str:
        return f"{self.page.name}:{self.line}"


def examples(page: Path) -> list[Example]:
    """The console blocks of ``page``, with their commands, typed input and skip reasons."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found: list[Example] = []
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```console":
            index += 1
            continue
        skip = SKIP.search(lines[index - 1]) if index else None
        end = next(end for end in range(index + 1, len(lines)) if lines[end].startswith("```"))
        commands = _commands(lines, index + 1, end)
        found.append(
            Example(page, index + 1, commands, _typed(lines, end + 1), skip["reason"] if skip else None)
        )
        index = end + 1
    return found


def _commands(lines: list[str], start: int, end: int) -> list[Command]:
    commands: list[Command] = []
    index = start
    while index < end:
        line = lines[index]
        if line.startswith("$ "):
            text = line[2:]
            while text.endswith("\\") and index + 1 < end:
                index += 1
                text = text[:-1] + lines[index]
            commands.append(Command(text.strip(), first_output_line=index + 1))
        elif commands:
            commands[-1].shown.append(line)
        index += 1
    return commands


def _typed(lines: list[str], after: int) -> str | None:
    """The typed lines listed in the paragraph after a block, if it starts with ``TYPED``."""
    paragraph: list[str] = []
    for line in lines[after:]:
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line)
    text = " ".join(paragraph)
    if not text.startswith(TYPED):
        return None
    return "".join(f"{item}\n" for item in re.findall(r"`([^`]*)`", text))


FIRST_RUN_NOTICES = (NOTICE.format(seconds=WARM_UP_SECONDS), BUILD_NOTICE)
"""Lines said only by a machine's first run (a compile), which a fresh clone's run of a page shows."""


def normalised(text: str) -> str:
    """What may differ between runs, made equal: durations, ms per guess, trailing spaces, and a
    first run's notice of a compile."""
    lines = [
        _MS_PER_GUESS.sub("│ <ms> │", _DURATION.sub("<duration>", line)).rstrip()
        for line in text.split("\n")
        if line not in FIRST_RUN_NOTICES and not _SEARCH_LOG.match(line)
    ]
    return "\n".join(lines).strip("\n")


def matches(shown: list[str], printed: str) -> bool:
    """Whether ``printed`` is what the page shows, a ``...`` line standing for any lines."""
    parts = [r"(?:[^\n]*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n" for line in shown]
    pattern = "".join(parts)
    return re.fullmatch(pattern, normalised(printed) + "\n") is not None


def run(command: Command, typed: str | None, scratch: Path) -> str:
    """Run a command as a reader would, in the scratch folder, and return what it printed."""
    environment = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "120",
        "TERM": "dumb",
        "PYTHONUNBUFFERED": "1",  # output and errors interleave as on a terminal, as the pages show them
    }
    for variable in ("MOOCOW_SEED", "MOOCOW_RESULTS_KEY", "MOOCOW_TABLE_BUDGET", "NO_COLOR", "FORCE_COLOR"):
        environment.pop(variable, None)
    completed = subprocess.run(
        ["bash", "-c", command.text],
        cwd=scratch,
        env=environment,
        input=typed or "",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return completed.stdout.replace(str(scratch), ".")


def make_scratch(base: Path) -> Path:
    """A folder that sees what the examples name, so what they write stays out of the checkout."""
    scratch = base / "moocow"
    scratch.mkdir(parents=True, exist_ok=True)
    for name in SEEN_FROM_SCRATCH:
        (scratch / name).symlink_to(ROOT / name)
    return scratch


ALL = [example for page in PAGES for example in examples(page)]


@dataclass
class Code:
    """A ``pycon`` or ``python`` block of a page and the ``docs-test`` marker before it."""

    page: Path
    line: int
    kind: str
    text: str
    marker: str | None

    @property
    def name(self) -> str:
        return f"{self.page.name}:{self.line}"


_MARKER = re.compile(r"<!-- docs-test: (?P<marker>.+?) -->")


def code_blocks(page: Path) -> list[Code]:
    """The ``pycon`` and ``python`` blocks of ``page``."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found: list[Code] = []
    for index, line in enumerate(lines):
        if line.strip() in ("```pycon", "```python"):
            end = next(end for end in range(index + 1, len(lines)) if lines[end].startswith("```"))
            marker = _MARKER.search(lines[index - 1]) if index else None
            text = "\n".join(lines[index + 1 : end]) + "\n"
            found.append(Code(page, index + 1, line.strip()[3:], text, marker["marker"] if marker else None))
    return found


CODE = [block for page in PAGES for block in code_blocks(page)]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_scratch(tmp_path_factory.mktemp("docs"))


def test_no_example_needs_anything_beside_the_checkout() -> None:
    """Every example runs as written in a fresh clone: none names ``../shared`` (the course's word
    list was there, so the README's grade and Python examples were skipped where it was not)."""
    named = [page.name for page in PAGES if "../shared" in page.read_text(encoding="utf-8")]
    assert named == []


def test_the_pages_have_console_examples() -> None:
    """The convention is in use (a parser that found nothing would pass every example)."""
    assert len(ALL) >= 10 and sum(len(example.commands) for example in ALL) >= 15
    assert all(example.commands for example in ALL if example.skip is None)


@pytest.mark.parametrize("example", ALL, ids=[example.name for example in ALL])
def test_console_example_prints_what_the_page_shows(example: Example, scratch: Path) -> None:
    """Each command of the block, run fresh, prints the lines shown under it."""
    if example.skip is not None:
        pytest.skip(example.skip)
    for command in example.commands:
        printed = run(command, example.typed, scratch)
        shown = normalised("\n".join(command.shown)).split("\n")
        assert matches(shown, printed), (
            f"$ {command.text}\n--- page:\n{chr(10).join(shown)}\n--- run:\n{printed}"
        )


@pytest.mark.parametrize("block", CODE, ids=[block.name for block in CODE])
def test_python_example_runs_as_shown(
    block: Code, scratch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pycon block is a passing doctest; a python block is an excerpt, a script that runs, or skipped."""
    if block.marker is not None and block.marker.startswith("skip: "):
        pytest.skip(block.marker.removeprefix("skip: "))
    if block.kind == "pycon":
        monkeypatch.chdir(scratch)
        test = doctest.DocTestParser().get_doctest(block.text, {}, block.name, str(block.page), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, f"{block.name}: a doctest failed (printed above)"
        return
    assert block.marker is not None, f"{block.name}: a python block needs a docs-test marker"
    kind, _, argument = block.marker.partition(": ")
    if kind == "excerpt":
        assert block.text in (ROOT / argument).read_text(encoding="utf-8"), (
            f"{block.name} drifted from {argument}"
        )
        return
    assert kind == "run", f"{block.name}: unknown docs-test marker {block.marker!r}"
    for link in argument.split():
        name, _, target = link.partition("=")
        (tmp_path / name).symlink_to((ROOT / target).resolve())
    (tmp_path / "example.py").write_text(block.text, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "example.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert completed.returncode == 0, f"{block.name} failed:\n{completed.stdout}{completed.stderr}"


def update() -> None:
    """Rewrite every example without ``...`` from a fresh run (the diff is the review)."""
    import tempfile

    with tempfile.TemporaryDirectory() as base:
        scratch = make_scratch(Path(base))
        for page in PAGES:
            lines = page.read_text(encoding="utf-8").split("\n")
            for example in reversed(examples(page)):
                if example.skip is not None:
                    continue
                printed = [run(command, example.typed, scratch) for command in example.commands]
                for command, output in reversed(list(zip(example.commands, printed, strict=True))):
                    if any(line.strip() == "..." for line in command.shown):
                        print(
                            f"{example.name}: '$ {command.text}' has '...': left for a person",
                            file=sys.stderr,
                        )
                        continue
                    if matches(normalised("\n".join(command.shown)).split("\n"), output):
                        continue  # only a duration or a timing column differs: keep the page's
                    start = command.first_output_line
                    lines[start : start + len(command.shown)] = [
                        line.rstrip() for line in output.rstrip("\n").split("\n")
                    ]
            page.write_text("\n".join(lines), encoding="utf-8")


FRONT_PAGE_LINES = 150
TOPICS = ("getting-started", "games", "strategies", "assistant", "web", "optimal", "tournaments", "runner")
TOPICS += ("grading", "gradescope", "plugins", "api", "design", "benchmarks")


def test_the_readme_is_a_front_page() -> None:
    """The README stays short, starts with the two commands (the first sets up and runs the main
    job, the second is what CI runs), and leads to every topic's page of the manual."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.split("\n")
    assert len(lines) < FRONT_PAGE_LINES
    setup = "python3 -m venv .venv && .venv/bin/python -m pip install -q -e '.[test]' && "
    assert lines[8:10] == [
        f"{setup}.venv/bin/moocow tournament --config tournament.toml",
        f"{setup}.venv/bin/python -m pytest",
    ]
    assert [topic for topic in TOPICS if f"(docs/{topic}.md)" not in readme] == []


SYSTEM_FOLDERS = {"proc", "sys", "dev", "tmp", "var", "run", "etc", "usr", "bin", "sbin", "lib", "opt"} | {
    "root"
}
"""Folders of the machine a page describes (what a sandbox hides, where a system puts things)."""
PLATFORM_FOLDERS = {"autograder", "grade", "moocow"}
"""Folders a grading platform makes: Gradescope's ``/autograder``, PrairieLearn's ``/grade`` and
the ``/moocow`` of the grader's image."""
_VARIABLE = re.compile(r'"?\$\{?\w+\}?"?/')
"""A path from a shell variable (``"$FIXTURES"/moocow-*.whl``): wherever the variable says."""
_HOME = re.compile(r"~/(?!\.cache/|\.local/|\.config/)[\w./-]+")
"""A path in a home folder other than where moocow keeps its own files (XDG's folders)."""
_ABSOLUTE = re.compile(r"(?<![\w.:/~\]-])/(?P<first>[A-Za-z_][\w-]*(?:\.[\w-]+)*)")
_UP = re.compile(r"(?<![\w.])\.\./")
_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)|\bsrc=\"(?P<source>[^\"]+)\"")


def web_routes() -> set[str]:
    """The first parts of the phone page's addresses (``/assist``, ``/tree.svg``)."""
    from moocow.web.app import create_app

    app = create_app()
    return {route.path.strip("/").split("/")[0] for route in getattr(app, "app", app).routes}


def outside_paths(page: Path, routes: set[str]) -> list[str]:
    """What ``page`` names outside the repository: a link that leaves it or leads nowhere, an
    absolute path that is not the system's, the platform's or a web address, a ``../`` path in
    an example (prose may tell of one: a player's ``../course/bot.py`` that the sandbox refuses)."""
    text = page.read_text(encoding="utf-8")
    found: list[str] = []
    for link in _LINK.finditer(text):
        target = (link["target"] or link["source"]).split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        resolved = (page.parent / target).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            found.append(f"link {target}")
    prose = _VARIABLE.sub("VARIABLE/", _LINK.sub("", text))
    for named in _ABSOLUTE.finditer(prose):
        if named["first"] not in SYSTEM_FOLDERS | PLATFORM_FOLDERS | routes:
            found.append(named.group(0))
    blocks = "\n".join(re.findall(r"^```\w*\n(.*?)^```", prose, flags=re.DOTALL | re.MULTILINE))
    found += [f"{line.strip()!r}" for line in blocks.split("\n") if _UP.search(line)]
    found += _HOME.findall(prose)
    return found


def test_no_page_names_a_path_outside_the_repository() -> None:
    """A page works in any clone: it links only to files of the checkout and names no folder of
    one machine (``../shared``, a helper's build of another solver); system folders, Gradescope's
    and the web page's addresses are what they are everywhere."""
    routes = web_routes()
    named = {page.name: outside_paths(page, routes) for page in PAGES}
    assert {page: paths for page, paths in named.items() if paths} == {}


def test_the_path_check_finds_what_it_should(tmp_path: Path) -> None:
    """The check is not blind: a link out, a machine's folder and a climb out are each found."""
    page = tmp_path / "probe.md"
    example = "```console\n$ cat ../shared/words.txt\n```\n"
    named = 'see /work/selby/wordle and ~/shared, not /proc, /assist, ~/.cache/moocow or "$HOME"/x'
    page.write_text(f"[a](probe.md) {named}.\n{example}", encoding="utf-8")
    found = ["link probe.md", "/work", "'$ cat ../shared/words.txt'", "~/shared"]
    assert outside_paths(page, {"assist"}) == found


_FROM = re.compile(r"<!-- docs-test: from: (?P<path>\S+) -->")


@dataclass
class MarkedTable:
    """A Markdown table right after a ``docs-test`` marker line."""

    page: Path
    line: int
    marker: re.Match[str]
    header: str
    rows: list[str]

    @property
    def name(self) -> str:
        return f"{self.page.name}:{self.line}"


def marked_tables(marker: re.Pattern[str]) -> list[MarkedTable]:
    """Every table of every page whose line before matches ``marker`` (its rule line left out)."""
    found: list[MarkedTable] = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        for index, line in enumerate(lines):
            match = marker.fullmatch(line.strip())
            if match is None:
                continue
            end = next(
                (end for end in range(index + 1, len(lines)) if not lines[end].startswith("|")), len(lines)
            )
            found.append(MarkedTable(page, index + 1, match, lines[index + 1], lines[index + 3 : end]))
    return found


def test_tables_from_the_benchmarks_are_theirs() -> None:
    """A table marked ``from: PATH`` is copied row for row from that file (``bench/README.md``),
    so a timing on a page is one measured there, with its machine and date."""
    tables = marked_tables(_FROM)
    for table in tables:
        source = (ROOT / table.marker["path"]).read_text(encoding="utf-8").split("\n")
        assert table.rows and all(row in source for row in table.rows), table.name
    assert sum(len(table.rows) for table in tables) >= 10


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_docs.py --update")
    update()
