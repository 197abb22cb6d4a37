"""PrairieLearn: a question with an external grader (``question``), what its entrypoint runs
(``grader``), and a local dry run of it (``tryout``). See docs/grading.md."""
