"""A program speaking the line protocol's version 2 (feedback as text) for any game: it guesses the
first secret, in the game's order, that fits every answer so far, reading the words and the
feedback through moocow's own engine. Honest in Wordle's hard mode too: a secret still possible
agrees with every answer, so the rule always allows it."""

import sys

from moocow import load_game


def main() -> None:
    sys.stdin.readline()  # moocow LEAST DECK: version 2 serves every deck
    print("moocow 2 first-v2 Test Player", flush=True)
    game = candidates = guess = None
    for line in sys.stdin:
        kind, _, rest = line.strip().partition(" ")
        if kind == "quit":
            return
        if kind == "game":
            game = load_game(rest.partition(" ")[2])
            candidates = game.secrets
        else:  # feedback TEXT, as the game writes it: GYBBB, 1B2C
            code = game.guesses[game.guess_index(guess)][None, :]
            candidates = candidates[game.feedback(code, candidates)[0] == game.parse_feedback(rest)]
        guess = game.format_code(candidates[0])
        print(guess, flush=True)


main()
