"""The platforms a course is graded on, each a thin adapter over the same course (``moocow.course``).

``gradescope`` builds an autograder zip, runs it in Gradescope's container and tries it here;
``prairielearn`` builds a question with an external grader, runs and tries it; ``classroom`` builds
a template repository whose workflow grades each push for the grading reporter; ``codegrade`` is the
points line an AutoTest custom test reads; ``formats`` chooses among those lines for ``moocow grade
--format``. None imports another (import-linter's independence contract): what two share lives in
``moocow.course``.
"""
