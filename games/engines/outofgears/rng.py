"""A small seeded generator (splitmix64) whose whole state is one JSON-safe hex string.

The state of a game carries it, so a game replays exactly from its seed and its move log, and no
global randomness is ever used.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> str:
    """The generator state for a seed, mixed so that nearby seeds give unrelated games."""
    rng = Rng(format(seed & _MASK, "x"))
    rng.next64()
    return rng.state()


class Rng:
    """splitmix64; ``below(n)`` is a uniform pick in range(n)."""

    __slots__ = ("_s",)

    def __init__(self, state: str) -> None:
        self._s = int(state, 16)

    def state(self) -> str:
        return format(self._s, "016x")

    def next64(self) -> int:
        s = (self._s + _GOLDEN) & _MASK
        self._s = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        # Lemire's multiply-shift; the bias for n <= 100 is below 2**-57.
        return (self.next64() * n) >> 64

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
