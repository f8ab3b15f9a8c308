"""Determinisation: a copy of a game as one player might believe it to be.

Placeholder: hidden orders reshuffled, others' unseen dice rerolled, a fresh generator.
"""

from __future__ import annotations

from . import rng


def determinise(state, player: int, seed: int):
    """A determinised copy of ``state`` for ``player``."""
    twin = state.clone()
    d = twin.data
    rules = state.game.rules
    generator = rng.seed_state(seed)
    machine = twin.machine
    for key in sorted(d["zones"]):
        owner, zid = key.split(":", 1)
        zdef = rules.zones[zid]
        mine = owner == str(player)
        if zdef["visibility"] == "hidden" or (zdef["visibility"] == "owner" and not mine):
            generator = rng.shuffle(generator, d["zones"][key])
            if zdef["visibility"] == "owner" and not mine:
                for comp_id in d["zones"][key]:
                    faces = machine.faces(comp_id)
                    if d["components"][comp_id]["kind"] == "die" and faces:
                        generator, face = rng.below(generator, len(faces))
                        d["components"][comp_id]["face"] = face
    d["rng"] = generator
    return twin
