"""Gradescope: an autograder zip built from a course file, a local dry run of it, and the grading it runs.

``course`` reads the course file; ``build`` writes the zip (setup.sh, run_autograder, the course,
its word files, a wheel of this moocow, a fresh secret seed); ``grading`` is what run_autograder
runs inside Gradescope's container; ``results`` composes ``results.json`` so that no field a
student sees before the due date holds a graded secret or guess; ``tryout`` runs a zip locally
as Gradescope would. See docs/gradescope.md.
"""
