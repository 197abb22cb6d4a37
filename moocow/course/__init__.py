"""A course, graded the same wherever it is graded: the room every grading platform stands on.

``course_file`` reads the course (its decks, rounds, points, limits); ``package`` checks it and
writes what every platform ships (the course, its deck files, a fresh secret seed, this moocow's
wheel); ``run`` plays a submission's practice and graded rounds within the course's time budget;
``points`` turns the graded total into points; ``report`` writes what was played as the parts every
platform shows (practice logs, the score, the graded details). ``dry_run`` and ``interpreter`` serve
the platforms' ``try`` commands. The platforms (``moocow.platforms``) only lay out their folders and
write their own results files from these; none builds on another.
"""
