"""O12 sharing, and the single-gear picks of O8 and O13, on plain lists of colour names."""

from __future__ import annotations

from .common import COLOURS
from .rng import Rng


def share(
    pool: list[str], claimants: list[int], rng: Rng
) -> tuple[dict[int, list[str]], list[str]]:
    """Split ``pool`` among ``claimants`` (robot numbers, ascending) by O12.

    Returns what each claimant took and what stayed; ``pool`` is not changed. With g gears and
    k claimants: g < k gives nobody anything; otherwise each takes g // k, own colour first (up to
    the share), then the rest drawn uniformly over the gears left, claimants in robot order.
    """
    g = len(pool)
    k = len(claimants)
    if g < k or g == 0:
        return {c: [] for c in claimants}, list(pool)
    if k == 1:
        return {claimants[0]: list(pool)}, []
    each = g // k
    took: dict[int, list[str]] = {c: [] for c in claimants}
    owner = {COLOURS[c]: c for c in claimants}
    rest: list[str] = []
    for gear in pool:
        c = owner.get(gear)
        if c is not None and len(took[c]) < each:
            took[c].append(gear)
        else:
            rest.append(gear)
    for c in claimants:
        mine = took[c]
        while len(mine) < each:
            mine.append(rest.pop(rng.below(len(rest))))
    return took, rest


def pick(pool: list[str], colour: str, count: int, rng: Rng) -> tuple[list[str], list[str]]:
    """Take ``count`` gears from ``pool``: of ``colour`` first, then uniformly at random.

    Returns (taken, left); ``pool`` is not changed. Used by O8 (count 1) and O13 (count 2).
    """
    taken: list[str] = []
    rest: list[str] = []
    for gear in pool:
        if gear == colour and len(taken) < count:
            taken.append(gear)
        else:
            rest.append(gear)
    while len(taken) < count and rest:
        taken.append(rest.pop(rng.below(len(rest))))
    return taken, rest
