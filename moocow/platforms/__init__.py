"""Grading where a course grades besides Gradescope, from the same course file (docs/grading.md).

``reports`` writes what CodeGrade and GitHub Classroom's grading reporter read; ``prairielearn``
builds, runs and tries a PrairieLearn external grader; ``classroom`` builds a template repository
whose workflow grades each push. Each reuses ``moocow.gradescope`` for the course and its grading.
"""
