"""The game's random generator: SplitMix64, whose whole state is one integer kept in the game state.

Python's ``random`` is never used for game chance: its state is large and its algorithms are
not part of any contract. SplitMix64 is tiny, fast in pure Python, portable and JSON-friendly.
"""

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a game seed (any int, folded to 64 bits), through SplitMix64's
    mixing function: neighbouring seeds start unrelated streams. (A plain affine map would make
    seed s + 1 start where seed s is after one draw, so games 1, 2, 3... would replay nearly
    the same chance.)"""
    return next64((seed ^ 0x632BE59BD9B4E019) & MASK)[1]


def next64(state: int) -> tuple[int, int]:
    """Advance the state; returns ``(new_state, 64-bit output)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``[0, n)`` (bias below 2**-50 for game-sized n)."""
    state, out = next64(state)
    return state, out % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
