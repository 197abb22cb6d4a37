"""Unconfined, writes a pickle that would run a command into every descriptor of its parent it can open."""

import os
import pickle


class Payload:
    def __reduce__(self):
        return (os.system, ("touch /tmp/moocow-pickle-ran",))


FRAME = len(pickle.dumps(Payload())).to_bytes(4, "big") + pickle.dumps(Payload())


def next_guess(game, history):
    folder = f"/proc/{os.getppid()}/fd"
    for name in os.listdir(folder):
        try:
            with open(os.path.join(folder, name), "wb") as descriptor:
                descriptor.write(FRAME)
        except OSError:
            pass
    return "111"
