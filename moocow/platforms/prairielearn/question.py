"""``prairielearn build``: a PrairieLearn question graded by moocow, from the course file.

PrairieLearn's external grading (its docs/externalGrading.md) runs the question's Docker image with
an entrypoint; the submitted files are in ``/grade/student``, the course's server files listed in
``externalGradingOptions.serverFilesCourse`` under ``/grade/serverFilesCourse``, and the grader
writes ``/grade/results/results.json``. Students never read ``serverFilesCourse``: the course, its
word files and the graded deck's seed go there. Written:

- ``questions/moocow/info.json`` and ``question.html`` (a file upload for the course's files);
- ``serverFilesCourse/moocow/``: ``course.toml``, the deck files, ``seed`` (mode 0600);
- ``graders/moocow/``: a ``Dockerfile`` (Python 3.12, this moocow from its wheel) and ``run``, the
  entrypoint, which runs ``moocow prairielearn run`` (``prairielearn_grader``).
"""

from __future__ import annotations

import html
import json
import shutil
import uuid
from pathlib import Path

from moocow.course.course_file import Course
from moocow.course.package import SEED_FILE, unpacked, write_new
from moocow.engine.errors import MoocowError
from moocow.runner.files import PRIVATE

NAME = "moocow"
"""The question's, the server files' and the grader's folder name."""
ENTRYPOINT = "/moocow/run"
"""Where the image holds the entrypoint."""
ROOT_VARIABLE = "MOOCOW_GRADE_ROOT"
"""The grader's root, ``/grade`` in PrairieLearn's container (``prairielearn try`` lays out another)."""
PYTHON_VARIABLE = "MOOCOW_PYTHON"
"""The interpreter the entrypoint runs, if set (``prairielearn try``: the one running it)."""
MOST_SECONDS = 600
"""PrairieLearn's longest external grading timeout."""

RUN = f"""\
#!/usr/bin/env bash
# Written by `moocow prairielearn build`: grade /grade/student by the course in server files.
set -euo pipefail
python="${{{PYTHON_VARIABLE}:-/usr/local/bin/python3}}"
exec "$python" -I -m moocow prairielearn run "${{{ROOT_VARIABLE}:-/grade}}"
"""

DOCKERFILE = """\
# Written by `moocow prairielearn build`: build and push it where PrairieLearn pulls images, e.g.
#   docker build -t {image} . && docker push {image}
FROM python:3.12-slim
COPY {wheel} run /moocow/
RUN python -m pip install --no-cache-dir /moocow/{wheel} \\
    && chmod 755 /moocow /moocow/run
"""


def question_html(course: Course) -> str:
    """The question: what to submit, a file upload for it, and the grader's results."""
    names = ", ".join(course.files)
    return f"""\
<pl-question-panel>
  <p>Submit {html.escape(names)}. It plays {course.practice_rounds} practice rounds per deck on a public
  seed, shown in full, and {course.rounds} graded rounds per deck on a secret seed, of which you see
  the total and the points only. Every attempt plays the same graded deck.</p>
</pl-question-panel>
<pl-file-upload file-names="{html.escape(",".join(course.files))}"></pl-file-upload>
<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""


def info_json(course: Course, image: str) -> dict[str, object]:
    """info.json: externally graded by the image, with the course's server files, no network."""
    return {
        "uuid": str(uuid.uuid4()),
        "title": "A code-breaking player, graded by moocow",
        "topic": "moocow",
        "tags": ["moocow"],
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": image,
            "entrypoint": ENTRYPOINT,
            "serverFilesCourse": [f"{NAME}/"],
            "timeout": min(MOST_SECONDS, course.seconds + 30),
            "enableNetworking": False,
        },
    }


def check_course(course: Course) -> None:
    """What PrairieLearn cannot take: a submission limit (it counts attempts itself), names the
    upload element cannot list, a budget past its longest timeout."""
    if course.submissions is not None:
        raise MoocowError(
            "PrairieLearn limits attempts itself (its assessment's maxPoints and tries): "
            "leave [gradescope.submissions] out of the course"
        )
    for name in course.files:
        if "," in name or html.escape(name) != name:
            raise MoocowError(f"file {name!r}: PrairieLearn's upload lists names without , < > & or quotes")
    if course.seconds + 30 > MOST_SECONDS:
        raise MoocowError(
            f"seconds = {course.seconds}: PrairieLearn stops a grader after {MOST_SECONDS} s at most; "
            f"give at most {MOST_SECONDS - 30}"
        )


def build_question(course: Course, output: Path, image: str) -> list[Path]:
    """Write the question, the server files and the grader under ``output``; the files written."""
    check_course(course)
    parts = ("questions", "serverFilesCourse", "graders")
    question, server, grader = (output / part / NAME for part in parts)
    with unpacked(course, output) as files:
        for folder in (question, server, grader):
            folder.mkdir(parents=True)
        for path in files.course_files:
            shutil.copyfile(path, server / path.name)
        write_new(server / SEED_FILE, files.seed.read_bytes(), PRIVATE)
        shutil.copyfile(files.wheel, grader / files.wheel.name)
        wheel = files.wheel.name
    (question / "info.json").write_text(json.dumps(info_json(course, image), indent=2) + "\n")
    (question / "question.html").write_text(question_html(course))
    (grader / "Dockerfile").write_text(DOCKERFILE.format(image=image, wheel=wheel))
    write_new(grader / "run", RUN.encode(), 0o755)
    return sorted(path for path in output.rglob("*") if path.is_file())
