"""The legal actions of the active player (G5-G8, G13-G16) as a lazy, read-only sequence
(LegalActions), in the order the page lists them: plays of one card, of two, of three, Remove,
Steal, Swap, rearrangements, then discard or pass. This is the move generator, and the rules'
only enumeration: engine.apply's G8 check (has_play) asks it whether a play exists.

A 4-seat position lists ~86 actions on average and a random bot uses one, so `legal_actions`
only counts them, per kind ("segments"), and `legal[i]` builds the i-th action alone: it finds
its segment by bisection, then the segment's walk (a generator: one per kind) skips whole cards
by their counts to its j-th action. Iterating, `in`, == and repr read every segment's walk from
its start: one enumeration for both.

Who may go where is builds.FITS (and BESIDE for swaps), computed from builds.placement_error,
the rule that also words apply's refusals:

- How many builds of mine each kind of part may join, for the 18 kinds at once (_counts): one
  packed row of counts per build key, summed over my builds.
- The plays of two and three cards: closed forms in those numbers (_count_two, _count_three);
  which pairs and triples of a hand may be played together depends only on the kinds of its
  parts, and is kept per kind of hand (_combos).
- Swaps: my parts that may swap with each opponent's part as a bit mask (_Mine); a count is a
  popcount.

Written for CPython's costs: plain loops over small ints and tuples, few objects made per call.
tests/engines/geared/test_geared_legal.py states what the listing must be (every action apply
accepts, once, in canonical form, in this order); the equivalence digests lock the listing and
the choices made by index.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Sequence
from itertools import product

from games.engines.geared.builds import (
    ALONE,
    BESIDE,
    BESIDE_TYPES,
    FITS,
    JOINED,
    KEY1,
    MIXED,
    PKEY,
    arrival_level,
    build_key,
    entries_key,
    part_key,
    placed_keys,
    placement_error,
)
from games.engines.geared.cards import (
    ACTION,
    ACTION_NAMES,
    DECK_SIZE,
    FIRST_WILD,
    IS_PART,
    IS_WILD,
    LEVEL,
    PART,
    TYPE_BIT,
    card_name,
)
from games.engines.interface import IllegalMove, Term, gettext_noop

NEW_LABELS = ("new1", "new2", "new3")
ALL_LEVELS = (1, 2, 3, 4, 5)


# --- rules the listing and the refusals (why_illegal) both ask ---------------------------------
# (and builds.FITS / JOINED / BESIDE for where a part may go, G9, G12, G15; has_play for G8)

_OWN_LEVEL = tuple((lv,) for lv in LEVEL)  # a printed part's level, by card


def play_levels(cards) -> tuple[int, ...]:
    """G5 (b), G12: the levels at which these parts may be played together: their one printed
    level, any level when all are wilds, none when their printed levels differ."""
    shared = 0
    for c in cards:
        lv = LEVEL[c]  # 0 for a wild
        if lv and lv != shared:
            if shared:
                return ()
            shared = lv
    return (shared,) if shared else ALL_LEVELS


def to_new_levels(c: int, alone: bool, wl: list) -> tuple[int, ...]:
    """G6: the levels at which part c of one of my builds may move out to a new build (`alone`:
    it is that build's only part; `wl`: state["wild_levels"]). A printed part keeps its level, a
    wild may take any; but moving the only part of a build to a new build is a move only when
    it re-declares a wild's level (otherwise it changes nothing)."""
    if c < FIRST_WILD:
        return () if alone else _OWN_LEVEL[c]
    if not alone:
        return ALL_LEVELS
    current = wl[c - FIRST_WILD]
    return tuple(lv for lv in ALL_LEVELS if lv != current)


# to_new_levels' counts for a printed part, by card, for _counts: alone, and beside another part.
_OUT_ALONE = tuple(len(to_new_levels(c, True, [])) for c in range(FIRST_WILD))
_OUT_BESIDE = tuple(len(to_new_levels(c, False, [])) for c in range(DECK_SIZE))


class LegalActions(Sequence):
    """Every legal action of one seat in one state, in listing order: len, index (negative too),
    slices (lists), iteration (every action built in turn, once), `in`, == with a list or
    another LegalActions, bool. Read-only, as
    is the state it was made from: the dicts it returns must not be changed. `rearranges` is the
    range of the indices of the rearrangements (one run; a bot that seldom rearranges uses it)."""

    __slots__ = ("_state", "_seat", "_ends", "_segs", "_n", "rearranges", "_all", "_keys", "_fits")

    def __init__(
        self,
        state: dict,
        seat: str,
        ends: list[int],
        segs: list[tuple],
        r0: int,
        r1: int,
        keys: list[tuple[int, int]],
        fits: dict,
    ):
        self._state = state
        self._keys = keys  # (id, builds.build_key) of each of the seat's builds
        self._fits = fits  # _of's
        self._seat = seat
        self._ends = ends  # the index after each segment's last action
        self._segs = segs  # (the segment's walk: its actions from the j-th on, *its data)
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
        return next(seg[0](self, seg, i - ends[k - 1] if k else i))

    def dests(self, c: int) -> list:
        """The builds of the seat's card c may join (_of)."""
        return _of(self._fits, self._keys, c)

    def _list(self) -> list[dict]:
        if self._all is None:
            out = []
            for seg in self._segs:
                out += seg[0](self, seg, 0)
            self._all = out
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


# How many builds of mine each kind of part may join (G9, G12, from builds.FITS), as a list
# indexed by kind, _FIELD[c]: the part key for a printed part (0-14), 15 + type for a wild (at
# the level the build's parts share, whichever it is). _ROW[build key] packs one build's counts,
# 8 bits a kind, so that a sum over my builds counts them all at once.
_FIELD = tuple(
    (15 + PART[c] if IS_WILD[c] else PKEY[c]) if IS_PART[c] else 0 for c in range(DECK_SIZE)
)
_NEW = tuple(5 if IS_WILD[c] else 1 for c in range(DECK_SIZE))  # a wild: one a level
_ROW = tuple(
    sum(FITS[key * 30 + f] << 8 * f for f in range(15))
    + sum(
        sum(FITS[key * 30 + 15 + 3 * (lv - 1) + t] for lv in ALL_LEVELS) << 8 * (15 + t)
        for t in range(3)
    )
    for key in range(128)
)
_SHIFTS = tuple(range(0, 8 * 18, 8))


def _counts(wl: list, mine: list[dict]) -> tuple[list[int], int, list[tuple[int, int]]]:
    """(how many builds of mine each kind of part may join: card c's count is
    `counts[_FIELD[c]]`; how many of my rearrangements move a part to a new build (G6,
    to_new_levels); each build's (id, key))."""
    total = news = 0
    keys = []
    for b in mine:
        cards = b["cards"]
        if len(cards) == 1 and cards[0] < FIRST_WILD:
            key = KEY1[cards[0]]
            news += _OUT_ALONE[cards[0]]
        elif len(cards) == 2 and cards[0] < FIRST_WILD and cards[1] < FIRST_WILD:
            c, d = cards
            if LEVEL[c] == LEVEL[d]:
                key = KEY1[c] | TYPE_BIT[d]
            else:
                key = TYPE_BIT[c] | TYPE_BIT[d] | MIXED << 4
            news += _OUT_BESIDE[c] + _OUT_BESIDE[d]
        else:  # with a wild (or not one or two parts: never in a game)
            key = build_key(wl, cards)
            alone = len(cards) == 1
            for c in cards:
                news += len(to_new_levels(c, alone, wl))
        total += _ROW[key]
        keys.append((b["id"], key))
    return [total >> s & 255 for s in _SHIFTS], news, keys


def legal_actions(state: dict, seat: str) -> LegalActions:
    """The legal actions of `seat`, whose turn it is (engine.legal_actions checks that)."""
    hand = state["hands"][seat]
    builds = state["builds"]
    seats = state["seats"]
    mine = builds[seat]
    counts, news, keys = _counts(state["wild_levels"], mine)
    fits: dict = {}
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
            n = _count_combos(fits, keys, parts, xs, n, ends, segs)
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
    return LegalActions(state, seat, ends, segs, r0, n, keys, fits)


def has_play(state: dict, seat: str) -> bool:
    """G8: whether a play (Parts or Action card) is legal in the position as it stands: whether
    anything comes before the rearrangements in the legal actions."""
    return legal_actions(state, seat).rearranges.start > 0


def _lowest_copies(hand: list[int]) -> list[int]:
    """Each Parts card, and the lowest-id copy of each kind of Action card."""
    seen: set[int] = set()
    out = []
    for c in hand:  # hands are sorted
        a = ACTION[c]
        if a >= 0:
            if a in seen:
                continue
            seen.add(a)
        out.append(c)
    return out


# --- the builds a part may join (for building actions) ------------------------------------------

# A part's key for those lists: 4 * level + type for a printed part (4-23), 24 + type for a
# wild (whatever its level: it takes a build's).
_KEY = tuple(
    -1 if not IS_PART[c] else 24 + PART[c] if IS_WILD[c] else 4 * LEVEL[c] + PART[c]
    for c in range(DECK_SIZE)
)


def _of(fits: dict, keys: list[tuple[int, int]], c: int) -> list:
    """The builds of mine (`keys`: each one's id and build key) card c may join (builds.FITS):
    ids for a printed part, (id, level) for a wild, which takes the level the build's parts
    share; kept in `fits` per kind of card (_KEY). A part's own build never shows: it holds a
    part of its type."""
    key = _KEY[c]
    f = fits.get(key)
    if f is None:
        if IS_WILD[c]:
            base = 15 + PART[c]
            f = [
                (bid, lv)
                for bid, k in keys
                for lv in ALL_LEVELS
                if FITS[k * 30 + base + 3 * lv - 3]
            ]
        else:
            pk = PKEY[c]
            f = [bid for bid, k in keys if FITS[k * 30 + pk]]
        fits[key] = f
    return f


def _at(fits: dict, keys: list, c: int, level: int) -> list:
    """_of at one level: the builds card `c` may join at `level`."""
    f = _of(fits, keys, c)
    return [bid for bid, lv in f if lv == level] if IS_WILD[c] else f


# --- plays -------------------------------------------------------------------------------------

# Restricted growth strings: every way to spread k cards over new builds, labels in order.
_NEW_PATTERNS = {
    0: ((),),
    1: ((0,),),
    2: ((0, 0), (0, 1)),
    3: ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2)),
}
_TRIPLE_PAIRS = ((0, 1), (0, 2), (1, 2))


def _label_table() -> dict[tuple[int, int], tuple]:
    """For a play of three cards: for each set of cards going to new builds (`fresh`, bit 2 the
    first card, bit 0 the third) and each set of pairs of one type (`clash`, bit 2 the pair
    (0, 1), bit 1 (0, 2), bit 0 (1, 2)), the labellings of the new builds in order, leaving out
    those that put two parts of one type into one new build. Each labelling is a 3-tuple with
    a label where a card goes to a new build and None where it joins an existing build."""
    table = {}
    for fresh_bits in range(1, 8):
        fresh = [i for i in range(3) if fresh_bits >> (2 - i) & 1]
        for clash in range(8):
            pairs = [p for k, p in enumerate(_TRIPLE_PAIRS) if clash >> (2 - k) & 1]
            out = []
            for pattern in _NEW_PATTERNS[len(fresh)]:
                row: list = [None, None, None]
                for k, i in enumerate(fresh):
                    row[i] = NEW_LABELS[pattern[k]]
                if any(row[i] is not None and row[i] == row[j] for i, j in pairs):
                    continue
                out.append(tuple(row))
            table[fresh_bits, clash] = tuple(out)
    return table


_LABELS = _label_table()

# A part's signature for the combination tables: 4 * level + type (a wild's level is 0).
_SIG = tuple(4 * LEVEL[c] + PART[c] if IS_PART[c] else 0 for c in range(len(LEVEL)))


# Whether two parts of these types (at one level) cannot share a build (G9): from builds.FITS,
# a build holding a Level 1 part of the first type and a Level 1 part of the second.
_CLASH = tuple(tuple(not FITS[(1 << t | 1 << 4) * 30 + u] for u in range(3)) for t in range(3))


# A part of each signature (4 * level + type; a wild's level is 0).
_SIG_CARD = {_SIG[c]: c for c in range(DECK_SIZE) if IS_PART[c]}


def _combo_table(size: int) -> tuple:
    """For every combination of signatures: None if the parts cannot be played together (two
    printed levels), else (the levels to list, holds a wild, which pairs are of one type: a
    bool for two cards, bits as in _label_table for three)."""
    table = []
    for sigs in product(range(24), repeat=size):
        levels = [s >> 2 for s in sigs]
        types = [s & 3 for s in sigs]
        if 3 in types:
            table.append(None)
            continue
        shared = play_levels(map(_SIG_CARD.__getitem__, sigs))
        if not shared:
            table.append(None)
            continue
        if size == 2:
            clash: object = _CLASH[types[0]][types[1]]
        else:
            clash = sum(
                1 << (2 - k) for k, (i, j) in enumerate(_TRIPLE_PAIRS) if _CLASH[types[i]][types[j]]
            )
        table.append((shared, not all(levels), clash))
    return tuple(table)


_PAIRS = _combo_table(2)
_TRIPLES = _combo_table(3)


def _count_two(x: int, y: int, clash: bool) -> int:
    """The plays of two cards at one level with x and y candidate builds (_play_two):
    x * y pairs of builds, x and y with the other card in a new build, ["new1", "new1"] and
    ["new1", "new2"]; two cards of one type (`clash`) never share a build: neither one of the
    builds both may join (their lists are nested, so min(x, y) of them) nor "new1"."""
    if clash:
        return (x + 1) * (y + 1) - (x if x < y else y)
    return (x + 1) * (y + 1) + 1


# _NLABELS[clash][fresh]: how many labellings of new builds _LABELS lists for three cards
# of which `fresh` go to new builds (bits as there; 0: none, one play).
_NLABELS = tuple((1, *(len(_LABELS[fresh, clash]) for fresh in range(1, 8))) for clash in range(8))


def _count_three(x: int, y: int, z: int, clash: int, nl: tuple) -> int:
    """The plays of three cards at one level with x, y, z candidate builds (_play_three).

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
    listing order, each with its _PAIRS / _TRIPLES entry, and whether a wild is
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
    fits: dict, keys: list, parts: list[int], xs: list[int], n: int, ends: list, segs: list
) -> int:
    """Adds the segments of the plays of two and of three cards: each keeps the count of each
    of its pairs or triples, so that building one action skips the others."""
    pairs, triples, wild = _combos(parts)
    if not pairs:  # no pair of these parts may be played together: nor may a triple
        return n
    if wild:  # a wild joins different builds at each level: count from the lists
        counts = [_pair_count(fits, keys, parts[i], parts[j], info) for i, j, info in pairs]
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
                _triple_count(fits, keys, parts[i], parts[j], parts[m], info)
                for i, j, m, info in triples
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


def _pair_count(fits: dict, keys: list, c0: int, c1: int, info: tuple) -> int:
    levels, _, clash = info
    k = 0
    for lv in levels:
        k += _count_two(len(_at(fits, keys, c0, lv)), len(_at(fits, keys, c1, lv)), clash)
    return k


def _triple_count(fits: dict, keys: list, c0: int, c1: int, c2: int, info: tuple) -> int:
    levels, _, clash = info
    nl = _NLABELS[clash]
    k = 0
    for lv in levels:
        x = len(_at(fits, keys, c0, lv))
        y = len(_at(fits, keys, c1, lv))
        z = len(_at(fits, keys, c2, lv))
        k += _count_three(x, y, z, clash, nl)
    return k


def _play_one(legal: LegalActions, seg: tuple, j: int):
    _, parts, xs = seg
    for c, x in zip(parts, xs, strict=True):
        k = x + _NEW[c]
        if j >= k:
            j -= k
            continue
        f = _of(legal._fits, legal._keys, c)
        if not IS_WILD[c]:
            for d in f[j:]:
                yield {"type": "play", "cards": [c], "builds": [d]}
            yield {"type": "play", "cards": [c], "builds": ["new1"]}
            j = 0
            continue
        for lv in ALL_LEVELS:
            dests = [bid for bid, level in f if level == lv]
            k = len(dests)
            if j > k:
                j -= k + 1
                continue
            for d in dests[j:]:
                yield {"type": "play", "cards": [c], "builds": [d], "level": lv}
            yield {"type": "play", "cards": [c], "builds": ["new1"], "level": lv}
            j = 0


def _play_two(legal: LegalActions, seg: tuple, j: int):
    _, parts, pairs, counts = seg
    for (i0, i1, (levels, wild, clash)), k in zip(pairs, counts, strict=True):
        if j >= k:
            j -= k
            continue
        fits, keys = legal._fits, legal._keys
        c0, c1 = parts[i0], parts[i1]
        for lv in levels:
            f0, f1 = _at(fits, keys, c0, lv), _at(fits, keys, c1, lv)
            k = _count_two(len(f0), len(f1), clash)
            if j >= k:
                j -= k
                continue
            for builds in _two(f0, f1, clash, j):
                action = {"type": "play", "cards": [c0, c1], "builds": builds}
                if wild:
                    action["level"] = lv
                yield action
            j = 0
        j = 0


def _two(f0: list, f1: list, clash: bool, j: int):
    """The destinations of the plays of two cards at one level, from the j-th on: each build of
    the first card's with each of the second's (never one build for two parts of one type), or
    with a new build; then a new build with each of the second's; then new builds."""
    for a in f0:
        row = [b for b in f1 if b != a] if clash and a in f1 else f1
        if j > len(row):
            j -= len(row) + 1
            continue
        for b in row[j:]:
            yield [a, b]
        yield [a, "new1"]
        j = 0
    for b in f1[j:]:
        yield ["new1", b]
    j = max(0, j - len(f1))
    if not clash:
        if j == 0:
            yield ["new1", "new1"]
        else:
            j -= 1
    if j == 0:
        yield ["new1", "new2"]


def _play_three(legal: LegalActions, seg: tuple, j: int):
    _, parts, triples, counts = seg
    for (i0, i1, i2, (levels, wild, clash)), k in zip(triples, counts, strict=True):
        if j >= k:
            j -= k
            continue
        fits, keys = legal._fits, legal._keys
        c0, c1, c2 = parts[i0], parts[i1], parts[i2]
        nl = _NLABELS[clash]
        for lv in levels:
            f0 = _at(fits, keys, c0, lv)
            f1 = _at(fits, keys, c1, lv)
            f2 = _at(fits, keys, c2, lv)
            k = _count_three(len(f0), len(f1), len(f2), clash, nl)
            if j >= k:
                j -= k
                continue
            for builds in _three(f0, f1, f2, clash, nl, j):
                action = {"type": "play", "cards": [c0, c1, c2], "builds": builds}
                if wild:
                    action["level"] = lv
                yield action
            j = 0
        j = 0


def _three(f0: list, f1: list, f2: list, clash: int, nl: tuple, j: int):
    """The destinations of the plays of three cards at one level, from the j-th on: skips whole
    runs of (first, second) destinations by their counts, then walks the third card's."""
    k01, k02, k12 = clash & 4, clash & 2, clash & 1
    z = len(f2)
    for a in (*f0, None):
        for b in (*f1, None):
            if k01 and a == b and a is not None:
                continue
            fresh = (a is None) << 2 | (b is None) << 1
            if j:
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
                    if j:
                        j -= 1
                    else:
                        yield [a, b, c]
                    continue
                rows = _LABELS[fresh | (c is None), clash]
                if j >= len(rows):
                    j -= len(rows)
                    continue
                for t0, t1, t2 in rows[j:]:
                    yield [t0 or a, t1 or b, t2 or c]
                j = 0


# --- Action cards --------------------------------------------------------------------------------


def _remove(legal: LegalActions, seg: tuple, j: int):
    state = legal._state
    builds = state["builds"]
    for owner in state["seats"]:
        for b in builds[owner]:
            cards = b["cards"]
            if j >= len(cards):
                j -= len(cards)
                continue
            for t in cards[j:]:
                yield {"type": "remove", "card": seg[1], "target": t}
            j = 0


def _steal(legal: LegalActions, seg: tuple, j: int):
    _, sc, counts = seg
    state, seat = legal._state, legal._seat
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
                f = _of(legal._fits, legal._keys, t)
                if not IS_WILD[t]:
                    for d in f[j:]:
                        yield {"type": "steal", "card": sc, "target": t, "to": d}
                    yield {"type": "steal", "card": sc, "target": t, "to": "new"}
                else:
                    for bid, level in f[j:]:
                        yield {"type": "steal", "card": sc, "target": t, "to": bid, "level": level}
                    for level in ALL_LEVELS[max(0, j - len(f)) :]:
                        yield {
                            "type": "steal",
                            "card": sc,
                            "target": t,
                            "to": "new",
                            "level": level,
                        }
                j = 0


# Swaps (G15): my part m, beside o in its build (or alone), for their part t, beside x (or
# alone), when t may arrive beside o and m beside x: builds.BESIDE, with the part keys of the
# parts and the rows of the parts that stay (ALONE when none does). My parts are numbered in
# listing order and a set of them is a bit mask; counts are popcounts.


class _Mine:
    """My parts for the swap checks, in listing order (a set of them is a bit mask): the masks
    of those a part of key t may replace (`leave`: t arrives beside the part that stays) and of
    those that may arrive beside a part of row x (`arrive`), each computed once.

    builds.BESIDE_TYPES says when a row of BESIDE depends only on the arriving part's type; then
    the masks come from my parts grouped by type (`by_type`: those a part of each type may
    replace, None if that depends on more; `types`: my parts of each set of types)."""

    __slots__ = ("cards", "rows", "keys", "leaves", "arrives", "by_type", "types", "theirs")

    def __init__(self, state: dict, seat: str):
        placed = placed_keys(state["wild_levels"])
        cards: list[int] = []
        rows: list[int] = []  # the row of the part beside each (ALONE's if none)
        keys: list[int] = []  # each one's part key
        l0 = l1 = l2 = t0 = t1 = t2 = 0
        by_type = True
        for b in state["builds"][seat]:
            group = b["cards"]
            for c in group:
                bit = 1 << len(cards)
                cards.append(c)
                keys.append(placed[c])
                if len(group) == 2:
                    o = group[1] if c == group[0] else group[0]
                    row = placed[o]
                else:
                    row = ALONE
                rows.append(row * 30)
                bt = BESIDE_TYPES[row]
                if bt < 0:
                    by_type = False
                else:
                    if bt & 1:
                        l0 |= bit
                    if bt & 2:
                        l1 |= bit
                    if bt & 4:
                        l2 |= bit
                t = PART[c]
                if t == 0:
                    t0 |= bit
                elif t == 1:
                    t1 |= bit
                else:
                    t2 |= bit
        self.cards = cards
        self.rows = rows
        self.keys = keys
        self.leaves: dict[int, int] = {}
        self.arrives: dict[int, int] = {ALONE * 30: (1 << len(cards)) - 1}
        self.by_type = [l0, l1, l2] if by_type else None
        self.types = (0, t0, t1, t0 | t1, t2, t0 | t2, t1 | t2, t0 | t1 | t2)
        self.theirs: list[tuple[int, int]] | None = None  # _swap's

    def mask(self, t: int, x_row: int) -> int:
        """My parts that may swap with their part of key t, beside the part of row x_row: those
        t may replace (it arrives beside the part that stays) and that may arrive beside x."""
        if self.by_type is not None:
            leave = self.by_type[t % 3]  # a part key's type
        else:
            leave = self.leaves.get(t)
            if leave is None:
                leave = 0
                for i, row in enumerate(self.rows):
                    if BESIDE[row + t]:
                        leave |= 1 << i
                self.leaves[t] = leave
        arrive = self.arrives.get(x_row)
        if arrive is None:
            bt = BESIDE_TYPES[x_row // 30]
            if bt >= 0:
                arrive = self.types[bt]
            else:
                arrive = 0
                for i, k in enumerate(self.keys):
                    if BESIDE[x_row + k]:
                        arrive |= 1 << i
            self.arrives[x_row] = arrive
        return leave & arrive


def _their_parts(state: dict, seat: str):
    """(card, its key, the row of the part beside it or ALONE's) for each opponent's part, in
    listing order."""
    placed = placed_keys(state["wild_levels"])
    builds = state["builds"]
    alone = ALONE * 30
    for owner in state["seats"]:
        if owner == seat:
            continue
        for b in builds[owner]:
            cards = b["cards"]
            if len(cards) == 2:
                c0, c1 = cards
                k0, k1 = placed[c0], placed[c1]
                yield c0, k0, k1 * 30
                yield c1, k1, k0 * 30
            else:
                for c in cards:
                    yield c, placed[c], alone


def _count_swaps(state: dict, seat: str, wc: int, n: int, ends: list, segs: list) -> int:
    mine = _Mine(state, seat)
    builds = state["builds"]
    by_type = mine.by_type
    k = 0
    if by_type is not None:  # what their part may replace depends only on its type
        placed = placed_keys(state["wild_levels"])
        alone = [m.bit_count() for m in by_type]
        types = mine.types
        mask = mine.mask
        for owner in state["seats"]:
            if owner == seat:
                continue
            for b in builds[owner]:
                cards = b["cards"]
                if len(cards) == 2:
                    c0, c1 = cards
                    x0, x1 = placed[c0], placed[c1]
                    b0, b1 = BESIDE_TYPES[x0], BESIDE_TYPES[x1]
                    if b0 >= 0 and b1 >= 0:
                        k += (by_type[PART[c0]] & types[b1]).bit_count()
                        k += (by_type[PART[c1]] & types[b0]).bit_count()
                    else:
                        k += mask(x0, x1 * 30).bit_count() + mask(x1, x0 * 30).bit_count()
                else:
                    for c in cards:
                        k += alone[PART[c]]
    else:
        mask = mine.mask
        for _, t, x_row in _their_parts(state, seat):
            k += mask(t, x_row).bit_count()
    if not k:
        return n
    n += k
    ends.append(n)
    segs.append((_swap, wc, mine))
    return n


def _swap(legal: LegalActions, seg: tuple, j: int):
    _, wc, mine = seg
    theirs = mine.theirs
    if theirs is None:  # each opponent's part with the mask of my parts it may swap with
        theirs = mine.theirs = [
            (card, m)
            for card, t, x_row in _their_parts(legal._state, legal._seat)
            if (m := mine.mask(t, x_row))
        ]
    for card, mask in theirs:
        k = mask.bit_count()
        if j >= k:
            j -= k
            continue
        fit = [c for i, c in enumerate(mine.cards) if mask >> i & 1]
        for m in fit[j:]:
            yield {"type": "swap", "card": wc, "mine": m, "theirs": card}
        j = 0


# --- rearrangements, discard, pass ---------------------------------------------------------------


def _rearrange(legal: LegalActions, seg: tuple, j: int):
    _, counts = seg
    state, seat = legal._state, legal._seat
    wl = state["wild_levels"]
    for b in state["builds"][seat]:
        cards = b["cards"]
        single = len(cards) == 1
        for c in cards:
            news = to_new_levels(c, single, wl)
            k = counts[_FIELD[c]] + len(news)
            if j >= k:
                j -= k
                continue
            f = _of(legal._fits, legal._keys, c)
            if not IS_WILD[c]:
                for d in f[j:]:
                    yield {"type": "rearrange", "card": c, "to": d}
                if news:  # at its own level, which is not given for a printed part
                    yield {"type": "rearrange", "card": c, "to": "new"}
            else:
                for bid, level in f[j:]:
                    yield {"type": "rearrange", "card": c, "to": bid, "level": level}
                for level in news[max(0, j - len(f)) :]:
                    yield {"type": "rearrange", "card": c, "to": "new", "level": level}
            j = 0


def _discard(legal: LegalActions, seg: tuple, j: int):
    for c in seg[1][j:]:
        yield {"type": "discard", "card": c}


def _pass(legal: LegalActions, seg: tuple, j: int):
    yield {"type": "pass"}


# --- why an action is not legal ------------------------------------------------------------------
# The one place where apply's refusals are written (engine.apply asks `checked` first and
# changes the state only after it). Each kind's check reads the action in the order that gives
# its refusal (IllegalMove, with the sentence a player reads) and asks the rules the listing asks
# above (play_levels, to_new_levels, has_play, builds.FITS / JOINED / BESIDE); placement_error
# only words a refusal. What it found (the parts located, the levels) goes back to apply, so
# nothing is looked up twice. tests/engines/geared/test_geared_legal.py checks that why_illegal is
# None exactly for the actions legal_actions lists (in canonical form).


def why_illegal(state: dict, seat: str, action: object) -> str | None:
    """Why `seat` may not take `action` now, in the sentence a player reads (apply's
    IllegalMove); None when it may: exactly when its canonical form is one of legal_actions."""
    try:
        checked(state, seat, action)
    except IllegalMove as refusal:
        return refusal.message
    return None


def checked(state: dict, seat: str, action: dict) -> object:
    """What engine.apply needs to take `action` (each kind's facts, below); IllegalMove with
    the reason when the rules refuse it."""
    if state["over"]:
        raise IllegalMove(gettext_noop("The game is over."))
    if seat not in state["hands"]:
        raise IllegalMove(gettext_noop("%(seat)r is not a seat in this game."), seat=seat)
    turn_seat = state["seats"][state["turn"]]
    if seat != turn_seat:
        raise IllegalMove(gettext_noop("It is %(name)s's turn."), name=state["names"][turn_seat])
    if not isinstance(action, dict):
        raise IllegalMove(gettext_noop("An action must be an object with a type."))
    kind = action.get("type")
    check = _CHECKS.get(kind) if isinstance(kind, str) else None
    if check is None:
        raise IllegalMove(gettext_noop("Unknown action type %(kind)r."), kind=kind)
    return check(state, seat, action)


def _fields(action: dict, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    for key in required:
        if key not in action:
            raise IllegalMove(gettext_noop("This action needs a %(field)r."), field=key)
    if len(action) == len(required):
        return  # every field is a required one
    extra = set(action) - set(required) - set(optional)
    if extra:
        raise IllegalMove(
            gettext_noop("Unexpected field %(field)r in this action."), field=sorted(extra)[0]
        )


# "The card/target/… must be a card id": one sentence per field, for the translators.
_CARD_ID = {
    "card": gettext_noop("The card must be a card id from 0 to %(last)s."),
    "target": gettext_noop("The target must be a card id from 0 to %(last)s."),
    "part of yours": gettext_noop("The part of yours must be a card id from 0 to %(last)s."),
    "opponent's part": gettext_noop("The opponent's part must be a card id from 0 to %(last)s."),
}


def _card_id(value: object, what: str = "card") -> int:
    if type(value) is int and 0 <= value < DECK_SIZE:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < DECK_SIZE:
        raise IllegalMove(_CARD_ID[what], last=DECK_SIZE - 1)
    return value


def _level(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
        raise IllegalMove(gettext_noop("A wild's level must be a whole number from 1 to 5."))
    return value


def _own_build(state: dict, seat: str, build_id: object) -> dict:
    if type(build_id) is not int and (isinstance(build_id, bool) or not isinstance(build_id, int)):
        raise IllegalMove(
            gettext_noop("A destination must be one of your build ids or a new build.")
        )
    for b in state["builds"][seat]:
        if b["id"] == build_id:
            return b
    raise IllegalMove(gettext_noop("You have no incomplete build %(build)s."), build=build_id)


def _check_placement(wl: list, existing, group: list[int], level: int, whose: str = "Your") -> None:
    """G9, G12: the parts of `group` at `level` may join a build holding `existing`."""
    key = build_key(wl, existing) if existing else 0
    for c in group:
        i = key * 30 + (PKEY[c] if c < FIRST_WILD else PKEY[c] + 3 * level - 3)  # part_key
        if not FITS[i]:
            entries = [(x, wl[x - FIRST_WILD] if IS_WILD[x] else LEVEL[x]) for x in existing]
            raise placement_error(entries, [(x, level) for x in group], whose)
        key = JOINED[i]


def _locate(builds: dict, cid: int) -> tuple[str, int, dict] | None:
    """(owner, index, build) of the incomplete build holding part `cid`, or None."""
    for owner, owned in builds.items():
        for i, b in enumerate(owned):
            if cid in b["cards"]:
                return owner, i, b
    return None


def _action_card(state: dict, seat: str, card: object, kind: int) -> int:
    if type(card) is not int:
        card = _card_id(card)
    if card not in state["hands"][seat]:
        _card_id(card)
        raise IllegalMove(gettext_noop("You do not hold card %(card_id)s."), card_id=card)
    if ACTION[card] != kind:
        raise IllegalMove(
            gettext_noop("Card %(card_id)s is not a %(action)s card."),
            card_id=card,
            action=Term("action", kind, ACTION_NAMES[kind]),
        )
    return card


def _table_part(state: dict, value: object, what: str) -> tuple[int, str, int, dict]:
    """(card, owner, index, build) of a part in an incomplete build on the table."""
    cid = value if type(value) is int and 0 <= value < DECK_SIZE else _card_id(value, what)
    found = _locate(state["builds"], cid)
    if found is None:
        raise IllegalMove(
            gettext_noop("Card %(card_id)s is not a part in an incomplete build on the table."),
            card_id=cid,
        )
    return cid, *found


def _check_play(state: dict, seat: str, a: dict) -> tuple:
    """G5 (a), (b), G9, G12: one to three parts of one level, into existing or new builds.
    Facts: (level, wild played, index in my builds or -1, destination) for one card; (level,
    wild played, the groups, the destination of each card in card order) for more: the cards
    by destination (an own build's id or a new build's label), each group with the index of
    its build (-1 for a new build) and its cards in card order."""
    if len(a) != 3 and (len(a) != 4 or "level" not in a):
        _fields(a, ("type", "cards", "builds"), ("level",))
    cards = a.get("cards")
    dests = a.get("builds")
    if cards is None or dests is None:
        _fields(a, ("type", "cards", "builds"), ("level",))
    level, wild = _play_level(state, seat, a, cards, dests)
    mine = state["builds"][seat]
    wl = state["wild_levels"]
    if len(cards) == 1:  # the common case, without grouping
        index, dest = _destination(state, seat, mine, dests[0])
        _check_placement(wl, mine[index]["cards"] if index >= 0 else [], cards, level)
        return level, wild, index, dest
    groups: dict[object, tuple[int, list[int]]] = {}
    order = []
    for c, dest in sorted(zip(cards, dests, strict=True)):
        index, dest = _destination(state, seat, mine, dest)
        order.append(dest)
        group = groups.get(dest)
        if group is None:
            groups[dest] = (index, [c])
        else:
            group[1].append(c)
    for index, group in groups.values():
        _check_placement(wl, mine[index]["cards"] if index >= 0 else [], group, level)
    return level, wild, groups, order


def _destination(state: dict, seat: str, mine: list[dict], dest: object) -> tuple[int, object]:
    """(index in `mine` or -1 for a new build, the build's id or the new build's label) of a
    play's destination; refuses anything else."""
    if type(dest) is int:
        for index, b in enumerate(mine):
            if b["id"] == dest:
                return index, dest
        _own_build(state, seat, dest)  # the refusal
    if isinstance(dest, str):
        if dest not in NEW_LABELS:
            raise IllegalMove(gettext_noop('A new build is named "new1", "new2" or "new3".'))
        return -1, dest
    b = _own_build(state, seat, dest)  # the refusal (or an int of another type)
    return mine.index(b), b["id"]


def _play_level(state: dict, seat: str, a: dict, cards: object, dests: object) -> tuple[int, bool]:
    """G5 (b), G12: the cards are one to three distinct Parts cards in the hand, of one level
    (play_levels); returns (that level, whether a wild is played): a wild's level is given, and
    equals the printed parts' level."""
    if type(cards) is not list or not 1 <= len(cards) <= 3:
        raise IllegalMove(gettext_noop("A play is a list of one to three Parts cards."))
    if type(dests) is not list or len(dests) != len(cards):
        raise IllegalMove(gettext_noop("A play needs one destination build per card."))
    for c in cards:
        if type(c) is not int or not 0 <= c < DECK_SIZE:
            _card_id(c)
    if len(cards) > 1 and len(set(cards)) != len(cards):
        raise IllegalMove(gettext_noop("A card can be played only once."))
    hand = state["hands"][seat]
    wild = False
    for c in cards:
        if c not in hand:
            raise IllegalMove(gettext_noop("You do not hold card %(card_id)s."), card_id=c)
        if not IS_PART[c]:
            raise IllegalMove(
                gettext_noop("%(card)s is an Action card: play it on its own, not with parts."),
                card=Term("card", (c, None), card_name(c)),
            )
        if IS_WILD[c]:
            wild = True
    levels = _ALONE_LEVELS[cards[0]] if len(cards) == 1 else play_levels(cards)
    if not levels:
        raise IllegalMove(gettext_noop("Parts played together must all be of the same level."))
    if not wild:
        if "level" in a:
            raise IllegalMove(gettext_noop("A level is given only when a wild is played."))
        return levels[0], False
    if "level" not in a:
        raise IllegalMove(gettext_noop("Say which level the wild takes."))
    level = a["level"]
    if type(level) is not int or not 0 < level < 6:
        level = _level(level)
    if level not in levels:
        printed = levels[0]
        raise IllegalMove(
            gettext_noop("A wild played with Level %(level)s parts takes Level %(level)s."),
            level=printed,
        )
    return level, True


# play_levels of a play of one card, by card.
_ALONE_LEVELS = tuple(play_levels((c,)) for c in range(DECK_SIZE))


def _check_remove(state: dict, seat: str, a: dict) -> tuple:
    """G13: one part of any incomplete build. Facts: (the Remove card, (the part, its owner,
    its build's index in the owner's builds, the build))."""
    if len(a) != 3 or "card" not in a or "target" not in a:
        _fields(a, ("type", "card", "target"))
    card = _action_card(state, seat, a["card"], 0)
    if not any(state["builds"].values()):
        raise IllegalMove(gettext_noop("There is no part on the table to remove."))
    return card, _table_part(state, a["target"], "target")


def _check_steal(state: dict, seat: str, a: dict) -> tuple:
    """G14: an opponent's part into one of my builds or a new build. Facts: (the Steal card,
    the part, its owner, its build's index in the owner's builds, that build, the level it
    takes, whether it is a wild, the index of my build it joins or -1 for a new build, that
    build or None)."""
    card = _action_card(state, seat, a.get("card"), 1)
    builds = state["builds"]
    target = a.get("target")
    found = _locate(builds, target) if type(target) is int else None
    if found is None or found[0] == seat:  # else an opponent has a part on the table
        if not any(b for o, b in builds.items() if o != seat):
            raise IllegalMove(gettext_noop("No opponent has a part on the table to steal."))
        target, *found = _table_part(state, target, "target")
    owner, index, source = found
    wild = IS_WILD[target]
    if len(a) != 4 + wild or "to" not in a or (wild and "level" not in a):
        _fields(a, ("type", "card", "target", "to"), ("level",) if wild else ())
    if owner == seat:
        raise IllegalMove(
            gettext_noop("You cannot steal from yourself: rearrange your own parts instead.")
        )
    if wild:
        if "level" not in a:
            raise IllegalMove(gettext_noop("Say which level the stolen wild takes."))
        level = _level(a["level"])
    else:
        level = LEVEL[target]
    to = a["to"]
    if to == "new":
        return card, target, owner, index, source, level, wild, -1, None
    dest = _own_build(state, seat, to)
    _check_placement(state["wild_levels"], dest["cards"], [target], level)
    return card, target, owner, index, source, level, wild, builds[seat].index(dest), dest


def _swap_levels(wl: list, mine_build: list[int], mine: int, theirs_build: list[int], theirs: int):
    """G15, G9, G12: (the level `theirs` takes in my build, the level `mine` takes in theirs),
    or the refusal's sentence (builds.arrival_level: a moved wild takes the level of the parts
    it joins, or keeps its own when it arrives alone; what builds.BESIDE, which the listing
    asks, is computed from)."""
    out = []
    for build, leaving, arriving, whose in (
        (mine_build, mine, theirs, "Your"),
        (theirs_build, theirs, mine, "Their"),
    ):
        left = [(c, wl[c - FIRST_WILD] if IS_WILD[c] else LEVEL[c]) for c in build if c != leaving]
        now = wl[arriving - FIRST_WILD] if IS_WILD[arriving] else LEVEL[arriving]
        level = arrival_level(left, arriving, now)
        if level is None:
            return IllegalMove(
                gettext_noop(
                    "The %(card)s cannot enter a build whose parts do not share one level."
                ),
                card=Term("card", (arriving, None), card_name(arriving)),
            )
        if not FITS[entries_key(left) * 30 + part_key(arriving, level)]:
            return placement_error(left, [(arriving, level)], whose)
        out.append(level)
    return out[0], out[1]


def _check_swap(state: dict, seat: str, a: dict) -> tuple:
    """G15: one of my parts for an opponent's. Facts: (the Swap card, (my part, its owner, its
    build's index, the build), (their part, ...), (the level their part takes in my build, the
    level mine takes in theirs))."""
    if len(a) != 4 or "card" not in a or "mine" not in a or "theirs" not in a:
        _fields(a, ("type", "card", "mine", "theirs"))
    card = _action_card(state, seat, a["card"], 2)
    mine = _table_part(state, a["mine"], "part of yours")
    theirs = _table_part(state, a["theirs"], "opponent's part")
    if mine[1] != seat:
        raise IllegalMove(gettext_noop("The first part of a Swap must be in one of your builds."))
    if theirs[1] == seat:
        raise IllegalMove(gettext_noop("The second part of a Swap must be in an opponent's build."))
    wl = state["wild_levels"]
    levels = _swap_levels(wl, mine[3]["cards"], mine[0], theirs[3]["cards"], theirs[0])
    if isinstance(levels, IllegalMove):
        raise levels
    return card, mine, theirs, levels


def _check_rearrange(state: dict, seat: str, a: dict) -> tuple:
    """G6: one of my parts to another of my builds or a new build. Facts: (the part, its build,
    the build it joins or None for a new one, the level it takes)."""
    card = _card_id(a.get("card"))
    _fields(a, ("type", "card", "to"), ("level",) if IS_WILD[card] else ())
    found = _locate(state["builds"], card)
    if found is None or found[0] != seat:
        raise IllegalMove(
            gettext_noop("You can only move a part of one of your own incomplete builds.")
        )
    source = found[2]
    if IS_WILD[card] and "level" not in a:
        raise IllegalMove(gettext_noop("Say which level the wild takes."))
    level = _level(a["level"]) if IS_WILD[card] else LEVEL[card]
    to = a["to"]
    if to == "new":
        if level not in to_new_levels(card, len(source["cards"]) == 1, state["wild_levels"]):
            raise IllegalMove(
                gettext_noop("Moving the only part of a build to a new build changes nothing.")
            )
        return card, source, None, level
    target = _own_build(state, seat, to)
    if target is source:
        raise IllegalMove(gettext_noop("That part is already in that build."))
    _check_placement(state["wild_levels"], target["cards"], [card], level)
    return card, source, target, level


def _check_discard(state: dict, seat: str, a: dict) -> int:
    """G8: any card, when nothing can be played. Facts: the card."""
    _fields(a, ("type", "card"))
    card = _card_id(a["card"])
    if card not in state["hands"][seat]:
        raise IllegalMove(gettext_noop("You do not hold card %(card_id)s."), card_id=card)
    if has_play(state, seat):
        raise IllegalMove(gettext_noop("You have a legal play, so you cannot discard."))
    return card


def _check_pass(state: dict, seat: str, a: dict) -> None:
    """G8: with an empty hand."""
    _fields(a, ("type",))
    if state["hands"][seat]:
        raise IllegalMove(gettext_noop("You can only pass when your hand is empty."))


_CHECKS = {
    "play": _check_play,
    "rearrange": _check_rearrange,
    "remove": _check_remove,
    "steal": _check_steal,
    "swap": _check_swap,
    "discard": _check_discard,
    "pass": _check_pass,
}


__all__ = [
    "LegalActions",
    "checked",
    "has_play",
    "legal_actions",
    "play_levels",
    "to_new_levels",
    "why_illegal",
]
