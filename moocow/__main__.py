"""``python -m moocow``: the command line, for scripts that name an interpreter (run_autograder)."""

from moocow.cli import main

if __name__ == "__main__":
    main()
