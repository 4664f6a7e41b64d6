"""The legal actions of the active player as a lazy, read-only sequence (LegalActions).

A 4-seat position lists ~86 actions on average and a random bot uses one, so `legal_actions`
only counts them, per kind ("segments": plays of one card, of two, of three, Remove, Steal,
Swap, rearrangements, discard or pass), and `legal[i]` builds the i-th action alone: it finds
its segment by bisection, then walks the segment's cards subtracting their counts. Iterating,
`in`, == and repr build the whole list once with moves.listing, the reference enumeration
(the pages and the greedy bot read every action: they pay what they paid before).

Counting follows moves.listing without listing:

- How many builds of mine each kind of part may join (G9, G12), for the 18 kinds at once
  (_counts): most actions are one per such build, plus the new-build ones.
- The plays of two and three cards: closed forms in those numbers (_count_two, _count_three);
  which pairs and triples of a hand may be played together depends only on the kinds of its
  parts, and is kept per kind of hand (_combos).
- Swaps: my parts as bit masks per type (_Mine); a count is a popcount.

Written for CPython's costs: plain loops over small ints and tuples, few objects made per call.
tests/unit/geared/test_geared_lazy.py compares `[legal[i] for i in range(len(legal))]` with
moves.listing on many positions (seeded games and made-up ones), and the equivalence digests
lock both the listing and the choices made by index.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Sequence

from games.geared.cards import (
    ACTION,
    DECK_SIZE,
    FIRST_WILD,
    IS_PART,
    IS_WILD,
    LEVEL,
    PART,
    TYPE_BIT,
)
from games.geared.moves import (
    _LABELS,
    _PAIRS,
    _SIG,
    _TRIPLES,
    ALL_LEVELS,
    _build_info,
    _infos,
    _lowest_copies,
    listing,
)


class LegalActions(Sequence):
    """Every legal action of one seat in one state, in listing order: len, index (negative too),
    slices (lists), iteration, `in`, == with a list or another LegalActions, bool. Read-only, as
    is the state it was made from: the dicts it returns must not be changed. `rearranges` is the
    range of the indices of the rearrangements (one run; a bot that seldom rearranges uses it)."""

    __slots__ = ("_state", "_seat", "_ends", "_segs", "_n", "rearranges", "_all")

    def __init__(
        self, state: dict, seat: str, ends: list[int], segs: list[tuple], r0: int, r1: int
    ):
        self._state = state
        self._seat = seat
        self._ends = ends  # the index after each segment's last action
        self._segs = segs  # (function building the segment's j-th action, *its data)
        self._n = ends[-1] if ends else 0
        self.rearranges = range(r0, r1)
        self._all: list[dict] | None = None

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if self._all is not None or isinstance(i, slice):
            return self._list()[i]
        i = operator.index(i)
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        ends = self._ends
        k = bisect_right(ends, i)
        seg = self._segs[k]
        return seg[0](self._state, self._seat, seg, i - ends[k - 1] if k else i)

    def _list(self) -> list[dict]:
        if self._all is None:
            self._all = listing(self._state, self._seat)
        return self._all

    def __iter__(self):
        return iter(self._list())

    def __reversed__(self):
        return reversed(self._list())

    def __contains__(self, action: object) -> bool:
        return action in self._list()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return self._list() == other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return repr(self._list())


# How many builds of mine each kind of part may join (G9, G12): a printed part, those that lack
# its type and hold no wild or a wild of its level; a wild, those that lack its type and whose
# parts share a level. _counts gives them as a list indexed by kind, _FIELD[c]: 3 * (level - 1)
# + type for a printed part (0-14), 15 + type for a wild. A build without a wild counts for
# every level of the types it lacks, so those are summed per type first, 8 bits a type in one
# small int: A (the builds a printed part may join) in bits 0-23, C (a wild) in bits 24-47.
_FIELD = tuple(
    (15 + PART[c] if IS_WILD[c] else 3 * (LEVEL[c] - 1) + PART[c]) if IS_PART[c] else 0
    for c in range(DECK_SIZE)
)
_NEW = tuple(5 if IS_WILD[c] else 1 for c in range(DECK_SIZE))  # a wild: one a level
_LACK_A = tuple(sum(1 << 8 * t for t in range(3) if not m >> t & 1) for m in range(8))
_LACK_AC = tuple(a + (a << 24) for a in _LACK_A)
_ALONE = tuple(_LACK_AC[TYPE_BIT[c]] for c in range(DECK_SIZE))  # a build of one printed part


def _counts(wl: list, mine: list[dict]) -> tuple[list[int], int]:
    """(how many builds of mine each kind of part may join, by _FIELD; how many of my
    rearrangements move a part to a new build: one for a printed part beside another, one a
    level for a wild, but not its own level when it is alone)."""
    total = news = 0
    wilds = None
    for b in mine:
        cards = b["cards"]
        if len(cards) == 1:
            c = cards[0]
            if c < FIRST_WILD:
                total += _ALONE[c]
                continue
        elif len(cards) == 2:
            c, d = cards
            if c < FIRST_WILD and d < FIRST_WILD:
                m = TYPE_BIT[c] | TYPE_BIT[d]
                total += _LACK_AC[m] if LEVEL[c] == LEVEL[d] else _LACK_A[m]
                news += 2
                continue
        if wilds is None:
            wilds = [cards]
        else:
            wilds.append(cards)
    a0, a1, a2 = total & 255, total >> 8 & 255, total >> 16 & 255
    counts = [a0, a1, a2] * 5
    counts += (total >> 24 & 255, total >> 32 & 255, total >> 40 & 255)
    if wilds is not None:
        for cards in wilds:  # with a wild (or not one or two parts: never in a game)
            _, m, w, lv = _build_info(wl, cards, 0)
            news += (
                (4 if lv in ALL_LEVELS else 5) if len(cards) == 1 else sum(_NEW[c] for c in cards)
            )
            for t in range(3):
                if m >> t & 1:
                    continue
                if not w:  # printed parts of every level
                    for f in range(t, 15, 3):
                        counts[f] += 1
                elif lv in ALL_LEVELS:  # printed parts of the wild's level
                    counts[3 * (lv - 1) + t] += 1
                if lv is not None:  # a wild, which takes the level the parts share
                    counts[15 + t] += 1
    return counts, news


def legal_actions(state: dict, seat: str) -> LegalActions:
    """The legal actions of `seat`, whose turn it is (engine.legal_actions checks that)."""
    hand = state["hands"][seat]
    builds = state["builds"]
    seats = state["seats"]
    mine = builds[seat]
    counts, news = _counts(state["wild_levels"], mine)
    ends: list[int] = []
    segs: list[tuple] = []
    n = 0
    parts = [c for c in hand if IS_PART[c]]
    if parts:
        xs = [counts[_FIELD[c]] for c in parts]
        n = sum(xs) + len(parts)
        if max(parts) >= FIRST_WILD:  # a wild: a new build at each level
            n += 4 * sum(IS_WILD[c] for c in parts)
        ends.append(n)
        segs.append((_play_one, parts, xs))
        if len(parts) > 1:
            n = _count_combos(state, seat, parts, xs, n, ends, segs)
    rc = sc = wc = None
    if len(parts) < len(hand):
        for c in hand:  # the first copy of each kind (hands are sorted)
            a = ACTION[c]
            if a == 0:
                if rc is None:
                    rc = c
            elif a == 1:
                if sc is None:
                    sc = c
            elif a == 2 and wc is None:
                wc = c
        if rc is not None:
            k = 0
            for owner in seats:
                for b in builds[owner]:
                    k += len(b["cards"])
            if k:
                n += k
                ends.append(n)
                segs.append((_remove, rc))
        if sc is not None:
            k = 0
            for owner in seats:
                if owner != seat:
                    for b in builds[owner]:
                        for t in b["cards"]:
                            k += counts[_FIELD[t]] + _NEW[t]
            if k:
                n += k
                ends.append(n)
                segs.append((_steal, sc, counts))
        if wc is not None and mine:
            n = _count_swaps(state, seat, wc, n, ends, segs)
    r0 = n
    if mine:
        k = news
        for b in mine:
            for c in b["cards"]:
                k += counts[_FIELD[c]]
        if k:
            n += k
            ends.append(n)
            segs.append((_rearrange, counts))
    if not hand:
        ends.append(n + 1)
        segs.append((_pass,))
    elif not r0:  # no play: G8
        cards = _lowest_copies(hand)
        ends.append(n + len(cards))
        segs.append((_discard, cards))
    return LegalActions(state, seat, ends, segs, r0, n)


# --- the lists of builds a part may join (for building actions) -------------------------------

# A part's key for those lists: 4 * level + type for a printed part (4-23), 24 + type for a
# wild (whatever its level: it takes a build's).
_KEY = tuple(
    -1 if not IS_PART[c] else 24 + PART[c] if IS_WILD[c] else 4 * LEVEL[c] + PART[c]
    for c in range(DECK_SIZE)
)


def _fit(infos: list, key: int) -> list:
    """The builds of mine (moves._infos) a part with this key may join (G9, G12), in order:
    ids for a printed part, (id, level) for a wild, which takes the level the build's parts
    share. A part's own build never shows: it holds a part of its type."""
    if key < 24:
        bit = 1 << (key & 3)
        level = key >> 2
        return [bid for bid, m, w, lv in infos if not m & bit and (not w or lv == level)]
    bit = 1 << (key - 24)
    return [(bid, lv) for bid, m, _, lv in infos if not m & bit and lv is not None]


def _dests(wl: list, mine: list[dict], c: int) -> list:
    """_fit(_infos(wl, mine), _KEY[c]): the builds of mine card c may join (for a printed part
    without building moves._infos)."""
    if IS_WILD[c]:
        return _fit(_infos(wl, mine), _KEY[c])
    bit, level = TYPE_BIT[c], LEVEL[c]
    f = []
    for b in mine:
        cards = b["cards"]
        if len(cards) == 1 and cards[0] < FIRST_WILD:
            if not TYPE_BIT[cards[0]] & bit:
                f.append(b["id"])
        elif len(cards) == 2 and cards[0] < FIRST_WILD and cards[1] < FIRST_WILD:
            if not (TYPE_BIT[cards[0]] | TYPE_BIT[cards[1]]) & bit:
                f.append(b["id"])
        else:
            _, m, w, lv = _build_info(wl, cards, 0)
            if not m & bit and (not w or lv == level):
                f.append(b["id"])
    return f


class _Fits(dict):
    """_dests per kind of card (_KEY), each computed once."""

    __slots__ = ("wl", "mine")

    def __init__(self, state: dict, seat: str):
        super().__init__()
        self.wl = state["wild_levels"]
        self.mine = state["builds"][seat]

    def of(self, c: int) -> list:
        key = _KEY[c]
        f = self.get(key)
        if f is None:
            f = self[key] = _dests(self.wl, self.mine, c)
        return f

    def at(self, c: int, level: int) -> list:
        """The builds card `c` may join at `level` (moves._candidates' row)."""
        f = self.of(c)
        return [bid for bid, lv in f if lv == level] if IS_WILD[c] else f


# --- plays -------------------------------------------------------------------------------------


def _count_two(x: int, y: int, clash: bool) -> int:
    """The plays of two cards at one level with x and y candidate builds (moves._plays_of_two):
    x * y pairs of builds, x and y with the other card in a new build, ["new1", "new1"] and
    ["new1", "new2"]; two cards of one type (`clash`) never share a build: neither one of the
    builds both may join (their lists are nested, so min(x, y) of them) nor "new1"."""
    if clash:
        return (x + 1) * (y + 1) - (x if x < y else y)
    return (x + 1) * (y + 1) + 1


# _NLABELS[clash][fresh]: how many labellings of new builds moves._LABELS lists for three cards
# of which `fresh` go to new builds (bits as there; 0: none, one play).
_NLABELS = tuple((1, *(len(_LABELS[fresh, clash]) for fresh in range(1, 8))) for clash in range(8))


def _count_three(x: int, y: int, z: int, clash: int, nl: tuple) -> int:
    """The plays of three cards at one level with x, y, z candidate builds (moves._plays_of_three).

    The sum, over which cards go to new builds (`fresh`), of the ways to send the others to
    existing builds, never two cards of one type to one build, times nl[fresh] labellings of the
    new ones. Two cards of one type have nested candidate lists (same type and level; a wild's
    list is part of a printed part's), so min() is their overlap; types clash for no pair, one
    pair or all three (two clashing pairs make the third clash too)."""
    m01 = (x if x < y else y) if clash & 4 else 0
    m02 = (x if x < z else z) if clash & 2 else 0
    m12 = (y if y < z else z) if clash & 1 else 0
    all_existing = x * y * z - m01 * z - m02 * y - m12 * x
    if clash == 7:  # inclusion-exclusion: the three in one build was subtracted thrice
        all_existing += 2 * min(x, y, z)
    return (
        all_existing
        + (x * y - m01) * nl[1]
        + (x * z - m02) * nl[2]
        + (y * z - m12) * nl[4]
        + x * nl[3]
        + y * nl[5]
        + z * nl[6]
        + nl[7]
    )


_COMBOS: dict[tuple, tuple] = {}


def _combos(parts: list[int]) -> tuple[list, list, bool]:
    """The pairs and triples of positions in `parts` that may be played together, in
    moves._plays' order, each with its moves._PAIRS / _TRIPLES entry, and whether a wild is
    among the parts. They depend only on the parts' kinds (_SIG): kept per hand."""
    sigs = tuple(map(_SIG.__getitem__, parts))
    found = _COMBOS.get(sigs)
    if found is None:
        if len(_COMBOS) >= 16384:  # hands of up to 5 of 18 kinds of parts: bounded anyway
            _COMBOS.clear()
        found = _COMBOS[sigs] = _find_combos(sigs)
    return found


def _find_combos(sigs: tuple) -> tuple[list, list, bool]:
    n = len(sigs)
    pairs = []
    triples = []
    for i in range(n - 1):
        row = sigs[i] * 24
        for j in range(i + 1, n):
            info = _PAIRS[row + sigs[j]]
            if info is None:  # nor may any triple of these two be played
                continue
            pairs.append((i, j, info))
            base = (row + sigs[j]) * 24
            for k in range(j + 1, n):
                info = _TRIPLES[base + sigs[k]]
                if info is not None:
                    triples.append((i, j, k, info))
    return pairs, triples, min(sigs) < 4  # a wild's _SIG is its type


def _count_combos(
    state: dict, seat: str, parts: list[int], xs: list[int], n: int, ends: list, segs: list
) -> int:
    """Adds the segments of the plays of two and of three cards: each keeps the count of each
    of its pairs or triples, so that building one action skips the others."""
    pairs, triples, wild = _combos(parts)
    if not pairs:  # no pair of these parts may be played together: nor may a triple
        return n
    if wild:  # a wild joins different builds at each level: count from the lists
        fits = _Fits(state, seat)
        counts = [_pair_count(fits, parts[i], parts[j], info) for i, j, info in pairs]
    else:
        counts = []
        for i, j, (_, _, clash) in pairs:
            x, y = xs[i], xs[j]
            if clash:
                counts.append((x + 1) * (y + 1) - (x if x < y else y))
            else:
                counts.append((x + 1) * (y + 1) + 1)
    n += sum(counts)
    ends.append(n)
    segs.append((_play_two, parts, pairs, counts))
    if triples:
        if wild:
            counts = [
                _triple_count(fits, parts[i], parts[j], parts[m], info) for i, j, m, info in triples
            ]
        else:
            counts = [
                _count_three(xs[i], xs[j], xs[m], clash, _NLABELS[clash])
                for i, j, m, (_, _, clash) in triples
            ]
        n += sum(counts)
        ends.append(n)
        segs.append((_play_three, parts, triples, counts))
    return n


def _pair_count(fits: _Fits, c0: int, c1: int, info: tuple) -> int:
    levels, _, clash = info
    k = 0
    for lv in levels:
        k += _count_two(len(fits.at(c0, lv)), len(fits.at(c1, lv)), clash)
    return k


def _triple_count(fits: _Fits, c0: int, c1: int, c2: int, info: tuple) -> int:
    levels, _, clash = info
    nl = _NLABELS[clash]
    k = 0
    for lv in levels:
        x, y, z = len(fits.at(c0, lv)), len(fits.at(c1, lv)), len(fits.at(c2, lv))
        k += _count_three(x, y, z, clash, nl)
    return k


def _play_one(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, parts, xs = seg
    for c, x in zip(parts, xs, strict=True):
        k = x + _NEW[c]
        if j >= k:
            j -= k
            continue
        f = _dests(state["wild_levels"], state["builds"][seat], c)
        k = len(f)
        if not IS_WILD[c]:
            return {"type": "play", "cards": [c], "builds": [f[j] if j < k else "new1"]}
        for lv in ALL_LEVELS:
            dests = [bid for bid, level in f if level == lv]
            k = len(dests)
            if j <= k:
                return {
                    "type": "play",
                    "cards": [c],
                    "builds": [dests[j] if j < k else "new1"],
                    "level": lv,
                }
            j -= k + 1
    raise IndexError(j)  # pragma: no cover


def _play_two(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, parts, pairs, counts = seg
    for (i0, i1, (levels, wild, clash)), k in zip(pairs, counts, strict=True):
        if j >= k:
            j -= k
            continue
        fits = _Fits(state, seat)
        c0, c1 = parts[i0], parts[i1]
        for lv in levels:
            f0, f1 = fits.at(c0, lv), fits.at(c1, lv)
            k = _count_two(len(f0), len(f1), clash)
            if j < k:
                action = {"type": "play", "cards": [c0, c1], "builds": _two(f0, f1, clash, j)}
                if wild:
                    action["level"] = lv
                return action
            j -= k
    raise IndexError(j)  # pragma: no cover


def _two(f0: list, f1: list, clash: bool, j: int) -> list:
    """The destinations of moves._plays_of_two's j-th play at one level."""
    y = len(f1)
    for a in f0:
        if clash and a in f1:
            if j < y - 1:
                return [a, [b for b in f1 if b != a][j]]
            if j == y - 1:
                return [a, "new1"]
            j -= y
        else:
            if j < y:
                return [a, f1[j]]
            if j == y:
                return [a, "new1"]
            j -= y + 1
    if j < y:
        return ["new1", f1[j]]
    return ["new1", "new1"] if j == y and not clash else ["new1", "new2"]


def _play_three(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, parts, triples, counts = seg
    for (i0, i1, i2, (levels, wild, clash)), k in zip(triples, counts, strict=True):
        if j >= k:
            j -= k
            continue
        fits = _Fits(state, seat)
        c0, c1, c2 = parts[i0], parts[i1], parts[i2]
        nl = _NLABELS[clash]
        for lv in levels:
            f0, f1, f2 = fits.at(c0, lv), fits.at(c1, lv), fits.at(c2, lv)
            k = _count_three(len(f0), len(f1), len(f2), clash, nl)
            if j < k:
                builds = _three(f0, f1, f2, clash, nl, j)
                action = {"type": "play", "cards": [c0, c1, c2], "builds": builds}
                if wild:
                    action["level"] = lv
                return action
            j -= k
    raise IndexError(j)  # pragma: no cover


def _three(f0: list, f1: list, f2: list, clash: int, nl: tuple, j: int) -> list:
    """The destinations of moves._plays_of_three's j-th play at one level: skips whole runs of
    (first, second) destinations by their counts, then walks the third card's as it does."""
    k01, k02, k12 = clash & 4, clash & 2, clash & 1
    z = len(f2)
    for a in (*f0, None):
        for b in (*f1, None):
            if k01 and a == b and a is not None:
                continue
            fresh = (a is None) << 2 | (b is None) << 1
            valid = z
            if k02 and a is not None and a in f2:
                valid -= 1
            if k12 and b is not None and b in f2:
                valid -= 1
            run = valid * nl[fresh] + nl[fresh | 1]
            if j >= run:
                j -= run
                continue
            for c in (*f2, None):
                if c is not None and ((k02 and a == c) or (k12 and b == c)):
                    continue
                if a is not None and b is not None and c is not None:
                    if j == 0:
                        return [a, b, c]
                    j -= 1
                    continue
                rows = _LABELS[fresh | (c is None), clash]
                if j < len(rows):
                    t0, t1, t2 = rows[j]
                    return [t0 or a, t1 or b, t2 or c]
                j -= len(rows)
    raise IndexError(j)  # pragma: no cover


# --- Action cards --------------------------------------------------------------------------------


def _remove(state: dict, seat: str, seg: tuple, j: int) -> dict:
    builds = state["builds"]
    for owner in state["seats"]:
        for b in builds[owner]:
            cards = b["cards"]
            if j < len(cards):
                return {"type": "remove", "card": seg[1], "target": cards[j]}
            j -= len(cards)
    raise IndexError(j)  # pragma: no cover


def _steal(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, sc, counts = seg
    builds = state["builds"]
    for owner in state["seats"]:
        if owner == seat:
            continue
        for b in builds[owner]:
            for t in b["cards"]:
                k = counts[_FIELD[t]] + _NEW[t]
                if j >= k:
                    j -= k
                    continue
                f = _dests(state["wild_levels"], state["builds"][seat], t)
                k = len(f)
                if not IS_WILD[t]:
                    return {
                        "type": "steal",
                        "card": sc,
                        "target": t,
                        "to": f[j] if j < k else "new",
                    }
                bid, level = f[j] if j < k else ("new", ALL_LEVELS[j - k])
                return {"type": "steal", "card": sc, "target": t, "to": bid, "level": level}
    raise IndexError(j)  # pragma: no cover


# Swaps (G15): my part m, beside o in its build (or alone), for their part t, beside x (or
# alone), when t fits beside o and m beside x (moves._swaps, moves._fits_beside): o of another
# type than t and, if o is a wild, t a wild or of o's level; likewise for x and m. A part is
# described by (type, level, is wild). My parts are numbered in listing order and a set of them
# is a bit mask: those t may replace (`leave`) & those that fit beside x (`arrive`); counts are
# popcounts.
_DESC = tuple((PART[c], LEVEL[c], False) for c in range(DECK_SIZE))


def _desc(c: int, wl: list) -> tuple:
    return (PART[c], wl[c - FIRST_WILD], True) if IS_WILD[c] else _DESC[c]


class _Mine:
    """My parts for the swap checks: masks by type, computed in one pass."""

    __slots__ = ("cards", "leave_by_type", "arrive_by_type", "beside_wild", "wilds", "levels")

    def __init__(self, state: dict, seat: str):
        wl = state["wild_levels"]
        cards: list[int] = []
        levels: list = []  # each part's level (a wild's declared one)
        single = wilds = 0
        beside = [0, 0, 0]  # parts beside a printed part of each type
        types = [0, 0, 0]  # parts of each type
        beside_wild = []  # (bit, type, level) of the wild beside a part
        for b in state["builds"][seat]:
            group = b["cards"]
            for c in group:
                bit = 1 << len(cards)
                cards.append(c)
                t, lv, w = _desc(c, wl)
                levels.append(lv)
                types[t] |= bit
                if w:
                    wilds |= bit
                if len(group) != 2:
                    single |= bit
                    continue
                o = group[1] if c == group[0] else group[0]
                if IS_WILD[o]:
                    beside_wild.append((bit, PART[o], wl[o - FIRST_WILD]))
                else:
                    beside[PART[o]] |= bit
        full = (1 << len(cards)) - 1
        paired = full & ~single
        for bit, _, _ in beside_wild:
            paired &= ~bit
        self.cards = cards
        self.levels = levels
        self.wilds = wilds
        self.beside_wild = beside_wild
        # t may replace a part alone or beside a printed part of another type (and, checked
        # in leave, one beside a wild of another type if t is a wild or of its level).
        self.leave_by_type = [single | (paired & ~beside[t]) for t in range(3)]
        # A printed x: my parts of another type fit beside it; a wild x: also of its level.
        self.arrive_by_type = [full & ~types[t] for t in range(3)]

    def leave(self, t: tuple) -> int:
        tt, tl, tw = t
        mask = self.leave_by_type[tt]
        for bit, ot, ol in self.beside_wild:
            if ot != tt and (tw or tl == ol):
                mask |= bit
        return mask

    def arrive(self, x: tuple) -> int:
        xt, xl, xw = x
        mask = self.arrive_by_type[xt]
        if xw:
            same = self.wilds
            for i, lv in enumerate(self.levels):
                if lv == xl:
                    same |= 1 << i
            mask &= same
        return mask


def _count_swaps(state: dict, seat: str, wc: int, n: int, ends: list, segs: list) -> int:
    mine = _Mine(state, seat)
    wl = state["wild_levels"]
    builds = state["builds"]
    k = 0
    if not mine.beside_wild:  # what t may replace depends only on its type: count per type
        leave = [m.bit_count() for m in mine.leave_by_type]
        lt, at = mine.leave_by_type, mine.arrive_by_type
        for owner in state["seats"]:
            if owner == seat:
                continue
            for b in builds[owner]:
                cards = b["cards"]
                if len(cards) != 2:
                    for c in cards:
                        k += leave[PART[c]]
                    continue
                c0, c1 = cards
                if IS_WILD[c0] or IS_WILD[c1]:
                    d0, d1 = _desc(c0, wl), _desc(c1, wl)
                    k += (lt[d0[0]] & mine.arrive(d1)).bit_count()
                    k += (lt[d1[0]] & mine.arrive(d0)).bit_count()
                else:
                    t0, t1 = PART[c0], PART[c1]
                    k += (lt[t0] & at[t1]).bit_count() + (lt[t1] & at[t0]).bit_count()
    else:
        for _, t, x in _their_parts(state, seat):
            k += _swap_mask(mine, t, x).bit_count()
    if not k:
        return n
    n += k
    ends.append(n)
    segs.append((_swap, wc, mine))
    return n


def _swap_mask(mine: _Mine, t: tuple, x: tuple | None) -> int:
    """My parts that may swap with their part t, beside x (None: alone)."""
    mask = mine.leave(t)
    return mask if x is None else mask & mine.arrive(x)


def _their_parts(state: dict, seat: str):
    """(card, description, the description of the part beside it or None) for each opponent's
    part, in listing order."""
    wl = state["wild_levels"]
    builds = state["builds"]
    for owner in state["seats"]:
        if owner == seat:
            continue
        for b in builds[owner]:
            cards = b["cards"]
            if len(cards) == 2:
                d0, d1 = _desc(cards[0], wl), _desc(cards[1], wl)
                yield cards[0], d0, d1
                yield cards[1], d1, d0
            else:
                for c in cards:
                    yield c, _desc(c, wl), None


def _swap(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, wc, mine = seg
    for card, t, x in _their_parts(state, seat):
        mask = _swap_mask(mine, t, x)
        k = mask.bit_count()
        if j >= k:
            j -= k
            continue
        fit = [c for i, c in enumerate(mine.cards) if mask >> i & 1]
        return {"type": "swap", "card": wc, "mine": fit[j], "theirs": card}
    raise IndexError(j)  # pragma: no cover


# --- rearrangements, discard, pass ---------------------------------------------------------------


def _rearrange(state: dict, seat: str, seg: tuple, j: int) -> dict:
    _, counts = seg
    wl = state["wild_levels"]
    for b in state["builds"][seat]:
        cards = b["cards"]
        single = len(cards) == 1
        for c in cards:
            k = counts[_FIELD[c]]
            if not IS_WILD[c]:
                k += not single
            else:  # alone, a wild moves to a new build only to change its level
                k += 4 if single and wl[c - FIRST_WILD] in ALL_LEVELS else 5
            if j >= k:
                j -= k
                continue
            f = _dests(state["wild_levels"], state["builds"][seat], c)
            if j < len(f):
                if not IS_WILD[c]:
                    return {"type": "rearrange", "card": c, "to": f[j]}
                bid, level = f[j]
                return {"type": "rearrange", "card": c, "to": bid, "level": level}
            if not IS_WILD[c]:
                return {"type": "rearrange", "card": c, "to": "new"}
            current = wl[c - FIRST_WILD]
            news = [lv for lv in ALL_LEVELS if not single or lv != current]
            return {"type": "rearrange", "card": c, "to": "new", "level": news[j - len(f)]}
    raise IndexError(j)  # pragma: no cover


def _discard(state: dict, seat: str, seg: tuple, j: int) -> dict:
    return {"type": "discard", "card": seg[1][j]}


def _pass(state: dict, seat: str, seg: tuple, j: int) -> dict:
    return {"type": "pass"}


__all__ = ["LegalActions", "legal_actions"]
