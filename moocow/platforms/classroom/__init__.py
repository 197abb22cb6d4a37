"""GitHub Classroom: a template repository (``template``) whose workflow grades each push
(``grade``) for the grading reporter (``reporter``). See docs/grading.md."""
