"""Every legal action of the active player (G5-G8, G13-G16), in the order the page lists them:
plays, Action cards, rearrangements, then discard or pass.

`listing` builds the whole list: it is the reference order. engine.legal_actions returns the
lazy sequence of games/geared/legal.py, which counts the actions and builds only those it is
asked for, in listing's order; iterating it calls listing. Behaviour, including the order of
the list and of the keys, is locked by tests/unit/geared/test_geared_equivalence.py.

The code works on small tuples and precomputed tables instead of the generic helpers of
builds.py (pages and the greedy bot list every action).
"""

from __future__ import annotations

from itertools import combinations, product

from games.geared.cards import ACTION, FIRST_WILD, IS_PART, IS_WILD, LEVEL, PART, TYPE_BIT

NEW_LABELS = ("new1", "new2", "new3")
ALL_LEVELS = (1, 2, 3, 4, 5)


def _build_info(wl: list, cards: list[int], bid: int) -> tuple[int, int, bool, int | None]:
    """(id, type mask, holds a wild, the level all its parts share or None)."""
    mask = 0
    wild = False
    level = -1  # no part yet
    for c in cards:
        mask |= TYPE_BIT[c]
        if IS_WILD[c]:
            wild = True
            lv = wl[c - FIRST_WILD]
        else:
            lv = LEVEL[c]
        if level == -1:
            level = lv
        elif level != lv:
            level = None
    return bid, mask, wild, (None if level == -1 else level)


def _infos(wl: list, builds: list[dict]) -> list[tuple[int, int, bool, int | None]]:
    out = []
    for b in builds:
        cards = b["cards"]
        if len(cards) == 1:  # the common cases, inline
            c = cards[0]
            if IS_WILD[c]:
                out.append((b["id"], TYPE_BIT[c], True, wl[c - FIRST_WILD]))
            else:
                out.append((b["id"], TYPE_BIT[c], False, LEVEL[c]))
        elif len(cards) == 2 and not IS_WILD[cards[0]] and not IS_WILD[cards[1]]:
            c, d = cards
            level = LEVEL[c]
            mask = TYPE_BIT[c] | TYPE_BIT[d]
            out.append((b["id"], mask, False, level if level == LEVEL[d] else None))
        else:
            out.append(_build_info(wl, cards, b["id"]))
    return out


def _fits(infos: list, bit: int, level: int) -> list:
    """The ids of the builds a printed (not wild) part of type `bit` and `level` may join (G9,
    G12). Wilds are matched inline where they are listed (_plays, _steals)."""
    return [
        bid for bid, m, b_wild, b_level in infos if not m & bit and (not b_wild or b_level == level)
    ]


def listing(state: dict, seat: str) -> list[dict]:
    """Every legal action of `seat`, whose turn it is: a new list of new dicts."""
    hand = state["hands"][seat]
    wl = state["wild_levels"]
    acts: list[dict] = []
    infos = _infos(wl, state["builds"][seat])
    parts = [c for c in hand if IS_PART[c]]
    if parts:
        _plays(parts, infos, acts)
    _action_cards(state, seat, hand, infos, acts)
    can_play = bool(acts)
    if infos:
        _rearranges(state, seat, infos, acts)
    if not hand:
        acts.append({"type": "pass"})
    elif not can_play:
        for c in _lowest_copies(hand):
            acts.append({"type": "discard", "card": c})
    return acts


def has_play(state: dict, seat: str) -> bool:
    """G8: whether a play (Parts or Action card) is legal in the position as it stands; stops at
    the first one found."""
    hand = state["hands"][seat]
    kinds = set()
    for c in hand:
        if IS_PART[c]:
            return True  # a part can always start a new build
        kinds.add(ACTION[c])
    builds = state["builds"]
    if 0 in kinds and any(b["cards"] for bs in builds.values() for b in bs):
        return True
    if 1 in kinds and any(b["cards"] for o, bs in builds.items() if o != seat for b in bs):
        return True  # a stolen part can always start a new build
    if 2 in kinds and builds[seat]:
        return _any_swap(state, seat)
    return False


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


def _combo_table(size: int) -> tuple:
    """For every combination of signatures: None if the parts cannot be played together (two
    printed levels), else (the levels to list, holds a wild, which pairs are of one type: a
    bool for two cards, bits as in _label_table for three)."""
    table = []
    for sigs in product(range(24), repeat=size):
        levels = [s >> 2 for s in sigs]
        types = [s & 3 for s in sigs]
        printed = {lv for lv in levels if lv}
        if len(printed) > 1 or 3 in types:
            table.append(None)
            continue
        if size == 2:
            clash: object = types[0] == types[1]
        else:
            clash = sum(
                1 << (2 - k) for k, (i, j) in enumerate(_TRIPLE_PAIRS) if types[i] == types[j]
            )
        table.append((tuple(printed) or ALL_LEVELS, not all(levels), clash))
    return tuple(table)


_PAIRS = _combo_table(2)
_TRIPLES = _combo_table(3)


def _plays(parts: list[int], infos: list, acts: list[dict]) -> None:
    """Plays of 1, 2, then 3 parts: combinations in hand order, then each level (all five for
    wilds alone), then every assignment of destinations: the product of each card's candidates
    (existing builds in order, then a new build), new builds labelled in order of first
    appearance (every labelling, as restricted growth strings), never two parts of one type in
    one build. A wild's level is added to the dicts afterwards (the last key either way)."""
    cands = _candidates(parts, infos)
    _plays_of_one(parts, cands, acts)
    if len(parts) >= 2:
        _plays_of_two(parts, cands, acts)
    if len(parts) >= 3:
        _plays_of_three(parts, cands, acts)


def _candidates(parts: list[int], infos: list) -> dict[int, list]:
    """For each card, the ids of the builds it may join at each level it can take (a row
    indexed by level; None at the levels it cannot take)."""
    cands: dict[int, list] = {}
    for c in parts:
        bit = TYPE_BIT[c]
        row: list = [None] * 6
        if IS_WILD[c]:
            for lv in ALL_LEVELS:
                row[lv] = [bid for bid, m, _, b_level in infos if not m & bit and b_level == lv]
        else:
            lv = LEVEL[c]
            row[lv] = _fits(infos, bit, lv)
        cands[c] = row
    return cands


def _plays_of_one(parts: list[int], cands: dict[int, list], acts: list[dict]) -> None:
    """G5 (a): each card into each build it fits, then into a new build."""
    append = acts.append
    for c in parts:
        row = cands[c]
        if IS_WILD[c]:
            for lv in ALL_LEVELS:
                acts += [
                    {"type": "play", "cards": [c], "builds": [d], "level": lv} for d in row[lv]
                ]
                append({"type": "play", "cards": [c], "builds": ["new1"], "level": lv})
        else:
            acts += [{"type": "play", "cards": [c], "builds": [d]} for d in row[LEVEL[c]]]
            append({"type": "play", "cards": [c], "builds": ["new1"]})


def _plays_of_two(parts: list[int], cands: dict[int, list], acts: list[dict]) -> None:
    """G5 (b) with two cards of one level; two of one type never share a build."""
    append = acts.append
    sig = _SIG
    for c0, c1 in combinations(parts, 2):
        info = _PAIRS[sig[c0] * 24 + sig[c1]]
        if info is None:
            continue
        levels, wild, clash = info
        r0, r1 = cands[c0], cands[c1]
        for lv in levels:
            start = len(acts)
            f1 = r1[lv]
            for a in r0[lv]:
                if clash:
                    acts += [
                        {"type": "play", "cards": [c0, c1], "builds": [a, b]} for b in f1 if a != b
                    ]
                else:
                    acts += [{"type": "play", "cards": [c0, c1], "builds": [a, b]} for b in f1]
                append({"type": "play", "cards": [c0, c1], "builds": [a, "new1"]})
            acts += [{"type": "play", "cards": [c0, c1], "builds": ["new1", b]} for b in f1]
            if not clash:
                append({"type": "play", "cards": [c0, c1], "builds": ["new1", "new1"]})
            append({"type": "play", "cards": [c0, c1], "builds": ["new1", "new2"]})
            if wild:
                for i in range(start, len(acts)):
                    acts[i]["level"] = lv


def _plays_of_three(parts: list[int], cands: dict[int, list], acts: list[dict]) -> None:
    """G5 (b) with three cards of one level; None stands for a new build while choosing."""
    append = acts.append
    sig = _SIG
    labels = _LABELS
    for c0, c1, c2 in combinations(parts, 3):
        info = _TRIPLES[sig[c0] * 576 + sig[c1] * 24 + sig[c2]]
        if info is None:
            continue
        levels, wild, clash = info
        k01, k02, k12 = clash & 4, clash & 2, clash & 1
        r0, r1, r2 = cands[c0], cands[c1], cands[c2]
        for lv in levels:
            start = len(acts)
            e1 = (*r1[lv], None)
            e2 = (*r2[lv], None)
            for a in (*r0[lv], None):
                for b in e1:
                    if k01 and a == b and a is not None:
                        continue
                    for c in e2:
                        if c is not None and ((k02 and a == c) or (k12 and b == c)):
                            continue
                        if a is not None and b is not None and c is not None:
                            append({"type": "play", "cards": [c0, c1, c2], "builds": [a, b, c]})
                        else:
                            fresh = (a is None) << 2 | (b is None) << 1 | (c is None)
                            for t0, t1, t2 in labels[fresh, clash]:
                                append(
                                    {
                                        "type": "play",
                                        "cards": [c0, c1, c2],
                                        "builds": [t0 or a, t1 or b, t2 or c],
                                    }
                                )
            if wild:
                for i in range(start, len(acts)):
                    acts[i]["level"] = lv


# --- Action cards ------------------------------------------------------------------------------


def _action_cards(state: dict, seat: str, hand: list[int], infos: list, acts: list[dict]) -> None:
    rc = sc = wc = None
    for c in hand:  # the first copy in the hand (hands are sorted: the lowest id)
        a = ACTION[c]
        if a == 0:
            if rc is None:
                rc = c
        elif a == 1:
            if sc is None:
                sc = c
        elif a == 2 and wc is None:
            wc = c
    if rc is None and sc is None and wc is None:
        return
    builds = state["builds"]
    if rc is not None:
        for owner in state["seats"]:
            for b in builds[owner]:
                acts += [{"type": "remove", "card": rc, "target": t} for t in b["cards"]]
    if sc is not None:
        _steals(state, seat, sc, infos, acts)
    if wc is not None and builds[seat]:
        _swaps(state, seat, wc, acts)


def _steals(state: dict, seat: str, sc: int, infos: list, acts: list[dict]) -> None:
    append = acts.append
    builds = state["builds"]
    fits: dict[int, list] = {}
    wild_fits: dict[int, list] = {}
    for owner in state["seats"]:
        if owner == seat:
            continue
        for b in builds[owner]:
            for t in b["cards"]:
                bit = TYPE_BIT[t]
                if IS_WILD[t]:
                    targets = wild_fits.get(bit)
                    if targets is None:
                        targets = wild_fits[bit] = [
                            (bid, b_level)
                            for bid, m, _, b_level in infos
                            if not m & bit and b_level is not None
                        ]
                    acts += [
                        {"type": "steal", "card": sc, "target": t, "to": bid, "level": b_level}
                        for bid, b_level in targets
                    ]
                    acts += [
                        {"type": "steal", "card": sc, "target": t, "to": "new", "level": lv}
                        for lv in ALL_LEVELS
                    ]
                else:
                    key = _SIG[t]
                    targets = fits.get(key)
                    if targets is None:
                        targets = fits[key] = _fits(infos, bit, LEVEL[t])
                    acts += [
                        {"type": "steal", "card": sc, "target": t, "to": bid} for bid in targets
                    ]
                    append({"type": "steal", "card": sc, "target": t, "to": "new"})


# A part on the table for swaps: (card, type, level, is wild, signature), the signature being
# an int naming (type, level, is wild); a part that stays behind when its neighbour leaves is
# described by the same tuple.


def _parts(wl: list, cards: list[int]) -> list[tuple[int, int, int, bool, int]]:
    out = []
    for c in cards:
        t = PART[c]
        if IS_WILD[c]:
            lv = wl[c - FIRST_WILD]
            out.append((c, t, lv, True, (t, lv, True)))
        else:
            lv = LEVEL[c]
            out.append((c, t, lv, False, _SIG[c]))
    return out


def _pairs(wl: list, builds: list[dict]) -> list[tuple]:
    """Each part with the one part that stays beside it when it leaves (or None).

    Incomplete builds hold at most two parts, so at most one stays (G10)."""
    out = []
    for b in builds:
        parts = _parts(wl, b["cards"])
        if len(parts) == 2:
            out.append((parts[0], parts[1]))
            out.append((parts[1], parts[0]))
        else:
            out.extend((p, None) for p in parts)
    return out


def _fits_beside(other: tuple | None, arriving: tuple) -> bool:
    """G9, G12 for a swapped part arriving beside the one part left in a build (or alone): an
    arriving wild takes its level (ruling), so only a non-wild arriving beside a wild must match
    the wild's level."""
    if other is None:
        return True
    if other[1] == arriving[1]:
        return False
    return not other[3] or arriving[3] or arriving[2] == other[2]


def _swap_pairs(state: dict, seat: str):
    """(my pairs, the opponents' pairs) for the swap checks, in listing order."""
    wl = state["wild_levels"]
    builds = state["builds"]
    theirs = []
    for owner in state["seats"]:
        if owner != seat:
            theirs += _pairs(wl, builds[owner])
    return _pairs(wl, builds[seat]), theirs


def _swaps(state: dict, seat: str, wc: int, acts: list[dict]) -> None:
    mine, theirs = _swap_pairs(state, seat)
    # My pairs flattened: (card, type, level, wild, neighbour's type, level, wild), with type -1
    # for no neighbour; the two _fits_beside checks are inlined below.
    flat = [
        (m[0], m[1], m[2], m[3], -1, 0, False) if o is None else (m[0], m[1], m[2], m[3], *o[1:4])
        for m, o in mine
    ]
    # Which of my parts can swap with a part depends only on what the two parts are, not which
    # copies: memoise per (their part's signature, its neighbour's).
    memo: dict[tuple, list[int]] = {}
    for t, t_other in theirs:
        key = (t[4], t_other[4] if t_other is not None else None)
        fit = memo.get(key)
        if fit is None:
            _, tt, tl, tw, _ = t
            if t_other is None:
                fit = [
                    mc
                    for mc, _, _, _, ot, ol, ow in flat
                    if ot < 0 or (ot != tt and (not ow or tw or tl == ol))
                ]
            else:
                _, xt, xl, xw, _ = t_other
                fit = [
                    mc
                    for mc, mt, ml, mw, ot, ol, ow in flat
                    if (ot < 0 or (ot != tt and (not ow or tw or tl == ol)))
                    and xt != mt
                    and (not xw or mw or ml == xl)
                ]
            memo[key] = fit
        t_card = t[0]
        acts += [{"type": "swap", "card": wc, "mine": m_card, "theirs": t_card} for m_card in fit]


def _any_swap(state: dict, seat: str) -> bool:
    mine, theirs = _swap_pairs(state, seat)
    for t, t_other in theirs:
        for m, m_other in mine:
            if _fits_beside(m_other, t) and _fits_beside(t_other, m):
                return True
    return False


# --- rearrangements ----------------------------------------------------------------------------


def _rearranges(state: dict, seat: str, infos: list, acts: list[dict]) -> None:
    append = acts.append
    wl = state["wild_levels"]
    for src in state["builds"][seat]:
        cards = src["cards"]
        src_id = src["id"]
        single = len(cards) == 1
        for c in cards:
            bit = TYPE_BIT[c]
            if IS_WILD[c]:
                acts += [
                    {"type": "rearrange", "card": c, "to": bid, "level": b_level}
                    for bid, m, _, b_level in infos
                    if bid != src_id and not m & bit and b_level is not None
                ]
                current = wl[c - FIRST_WILD]
                acts += [
                    {"type": "rearrange", "card": c, "to": "new", "level": lv}
                    for lv in ALL_LEVELS
                    if not single or lv != current
                ]
            else:
                lv = LEVEL[c]
                acts += [
                    {"type": "rearrange", "card": c, "to": bid}
                    for bid, m, b_wild, b_level in infos
                    if bid != src_id and not m & bit and (not b_wild or b_level == lv)
                ]
                if not single:
                    append({"type": "rearrange", "card": c, "to": "new"})
