"""A league's pairings: every table of the season, built before it starts, all started at once.

Two seats: a full round robin (the circle method: every pair once, in rounds). Three seats or
more: every k-subset of the players when that is no more tables than the cyclic schedule; else
a difference set (`_difference_set`: one base table turned round the players, every pair meeting
equally often, every player once in each seat) when one exists and is fewer tables; else the
cyclic schedule (`_cyclic`): base tables turned round the circle of players, so every player
sits at exactly as many tables as every other, and every pair meets at least once and as evenly
as the numbers allow (the meeting counts differ by at most one). Seats are then ordered table by
table so each player's seat positions spread: the first seat goes to whoever has had it least.
Every shape of 3 to 6 seats and at most MAX_PLAYERS players fits in MAX_GAMES.

Deterministic: the same players in the same order give the same tables. docs/leagues.md states
the rule to players; the bound (MAX_PLAYERS, MAX_GAMES) keeps a league small enough to create
at once and to play."""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from functools import cache

from games.leagues.refusals import LeagueRefused, gettext_noop

#: The most players a league may have.
MAX_PLAYERS = 24
#: The most games a league may create (a round robin of 16 at two seats is exactly 120).
MAX_GAMES = 120


def check_shape(players: int, seats: int, max_seats: int) -> None:
    """Refuse a league that cannot be paired at all, whatever its number of games."""
    if not 2 <= seats <= max_seats:
        raise LeagueRefused(
            gettext_noop("A table has from 2 to %(max_seats)s seats in this game."),
            max_seats=max_seats,
        )
    if players < 2:
        raise LeagueRefused(gettext_noop("A league needs at least two players."))
    if players > MAX_PLAYERS:
        raise LeagueRefused(
            gettext_noop("A league has at most %(max_players)s players; this one has %(count)s."),
            max_players=MAX_PLAYERS,
            count=players,
        )
    if players < seats:
        raise LeagueRefused(
            gettext_noop("Tables of %(seats)s seats need at least %(seats)s players."),
            seats=seats,
        )


def games_count(players: int, seats: int, max_seats: int) -> int:
    """How many games a league of `players` at tables of `seats` WILL create, announced before
    it starts. Refuses a league that cannot be paired; a count over MAX_GAMES is returned (the
    page says it and the bound), and `check_league` or `schedule` refuse it."""
    check_shape(players, seats, max_seats)
    return len(_tables(players, seats))


def check_league(players: int, seats: int, max_seats: int) -> int:
    """The number of games of a league the rules allow, or a refusal that says the bound."""
    count = games_count(players, seats, max_seats)
    if count > MAX_GAMES:
        raise LeagueRefused(
            gettext_noop(
                "This league would create %(count)s games; a league creates at most "
                "%(max_games)s. Invite fewer players or seat more at each table."
            ),
            count=count,
            max_games=MAX_GAMES,
        )
    return count


def schedule[P](players: Sequence[P], seats: int, max_seats: int) -> list[tuple[P, ...]]:
    """Every table of the league, each a tuple of its players in seat order. Deterministic for
    a given order of `players`; refuses a repeated player and a league over the bound."""
    if len(set(players)) != len(players):
        raise LeagueRefused(gettext_noop("A player can join a league only once."))
    check_league(len(players), seats, max_seats)
    return [tuple(players[i] for i in table) for table in _tables(len(players), seats)]


@cache
def _tables(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    if k == 2:
        return _round_robin(n)
    cyclic = _cyclic(n, k)
    if math.comb(n, k) <= len(cyclic):
        return _seat(n, _every_table(n, k))
    designed = _difference_set(n, k)
    if designed is not None and len(designed) < len(cyclic):
        return tuple(tuple(table) for table in designed)  # seated already
    return _seat(n, cyclic)


def _round_robin(n: int) -> tuple[tuple[int, ...], ...]:
    """The circle method: one player fixed, the others turn round them (a bye when n is odd).
    Who sits first is the cyclic rule on an odd number m of players (a before b when b comes
    1..(m-1)/2 places after a, round the circle), the last player of an even league sitting
    first against every other one: everyone sits first in half their games, give or take one."""
    m = n if n % 2 else n - 1
    ring: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    size = len(ring)
    tables: list[tuple[int, ...]] = []
    for _ in range(size - 1):
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if a is None or b is None:
                continue
            if n % 2 == 0 and n - 1 in (a, b):
                last, other = (a, b) if a == n - 1 else (b, a)
                first = last if other % 2 == 0 else other
            else:
                first = a if (b - a) % m <= (m - 1) // 2 else b
            tables.append((first, b if first == a else a))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(tables)


def _every_table(n: int, k: int) -> list[list[int]]:
    return [list(c) for c in itertools.combinations(range(n), k)]


def _difference_set(n: int, k: int) -> list[list[int]] | None:
    """One base table whose players' differences cover every non-zero difference equally often
    (a difference set: lam = k(k-1)/(n-1) times each), turned round the players: n tables, every
    pair meeting exactly lam times, each player at k tables and in each seat exactly once (the
    tables keep the base table's order: player p has seat j at the table turned by p minus its
    j-th player). Searched only when (n-1) divides k(k-1): for n a power of two first on the
    players as bit vectors (differences by xor: 16 players at 6 seats have no cyclic one, and
    {0, 1, 2, 4, 8, 15} is one by xor), then round the circle (differences mod n). Used when
    the greedy `_cyclic` needs more tables: 11 and 21 players at 5 seats (11 and 21 games, not
    121 and 126), 11 at 6 (11, not 44), 16 at 6 (16, not 128). None when there is none; the
    search backtracks, in a few milliseconds."""
    if k * (k - 1) % (n - 1):
        return None
    lam = k * (k - 1) // (n - 1)
    Op = Callable[[int, int], int]
    groups: list[tuple[Op, Op]] = [(lambda a, b: (a - b) % n, lambda a, b: (a + b) % n)]
    if n & (n - 1) == 0:
        groups.insert(0, (operator.xor, operator.xor))
    for minus, plus in groups:
        block = _search_difference_set(n, k, lam, minus)
        if block is not None:
            return [[plus(t, x) for x in block] for t in range(n)]
    return None


def _search_difference_set(
    n: int, k: int, lam: int, minus: Callable[[int, int], int]
) -> tuple[int, ...] | None:
    """Players taken in increasing order from 0, each added only while no difference has been
    seen more than lam times; k players then cover all n-1 differences lam times each."""
    seen = [0] * n

    def extend(block: list[int]) -> tuple[int, ...] | None:
        if len(block) == k:
            return tuple(block)
        for x in range(block[-1] + 1, n - (k - len(block) - 1)):
            diffs = [d for b in block for d in (minus(x, b), minus(b, x))]
            for d in diffs:
                seen[d] += 1
            if all(seen[d] <= lam for d in diffs):
                found = extend([*block, x])
                if found is not None:
                    return found
            for d in diffs:
                seen[d] -= 1
        return None

    return extend([0])


def _cyclic(n: int, k: int) -> list[list[int]]:
    """Base tables on the players numbered round a circle (0..n-1), each turned round it n
    times: everyone sits at k tables per base table, exactly, and a pair of players d places
    apart round the circle meets once for each two of a base table's players d apart. Base
    tables are built one by one, player by player (from 0), each added player the one that keeps the
    meetings of the distance classes lowest and most even, until every class meets and they
    differ by at most one."""
    classes = n // 2
    met = [0] * (classes + 1)
    bases: list[tuple[int, ...]] = []

    def gains(block: tuple[int, ...]) -> list[int]:
        found = [0] * (classes + 1)
        for a, b in itertools.combinations(block, 2):
            d = (b - a) % n
            d = min(d, n - d)
            found[d] += 2 if 2 * d == n else 1
        return found

    while not bases or min(met[1:]) < 1 or max(met[1:]) - min(met[1:]) > 1:
        if len(bases) * n > MAX_GAMES and min(met[1:]) >= 1:
            break  # over the bound: refused anyway, its count is what matters

        def key(block: tuple[int, ...], met: list[int] = met) -> tuple[int, int, int]:
            after = [m + g for m, g in zip(met, gains(block), strict=True)][1:]
            return (max(after), after.count(min(after)) if min(after) == 0 else 0, -min(after))

        block: tuple[int, ...] = (0,)
        for _ in range(k - 1):
            block = min(
                (tuple(sorted((*block, x))) for x in range(1, n) if x not in block), key=key
            )
        met = [m + g for m, g in zip(met, gains(block), strict=True)]
        bases.append(block)
    return [[(i + x) % n for x in block] for block in bases for i in range(n)]


def _seat(n: int, groups: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Each table's seat order: seat by seat, the player who has sat there least (then who has
    sat first least, then who comes first at this table)."""
    k = len(groups[0])
    sat = [[0] * k for _ in range(n)]
    tables = []
    for group in groups:
        order: list[int] = []
        for seat in range(k):
            chosen = min(
                (p for p in group if p not in order),
                key=lambda p, s=seat: (sat[p][s], sat[p][0], group.index(p)),
            )
            order.append(chosen)
            sat[chosen][seat] += 1
        tables.append(tuple(order))
    return tuple(tables)
