"""Gradescope: an autograder zip built from a course file, the grading it runs, and a local dry run.

``build`` writes the zip (setup.sh and run_autograder from ``scripts``, and what every platform
ships of the course); ``grading`` is what run_autograder runs inside Gradescope's container: its
folders, its submission limit, and the course's run (``moocow.course.run``); ``results`` writes
``results.json`` so that no field a student sees before the due date holds a graded secret or
guess; ``tryout`` runs a zip locally as Gradescope would. See docs/gradescope.md.
"""
