"""A league's standings: pairwise mini-matches (2/1/0), then head-to-head, Sonneborn-Berger and
wins, then a shared place; and the end date's adjudication of an unfinished game."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.leagues.refusals import LeagueRefused, gettext_noop

WIN, DRAW, LOSS = 2, 1, 0


@dataclass(frozen=True)
class Result[P]:
    """One finished game: its table (players in seat order), each player's final place (1 is
    first; tied players share a place) and who forfeited (timed out or left: placed last,
    earning nothing; their place, if any, is ignored)."""

    table: tuple[P, ...]
    places: Mapping[P, int]
    forfeits: frozenset[P] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        placed = set(self.table) - set(self.forfeits)
        if len(set(self.table)) != len(self.table) or not set(self.forfeits) <= set(self.table):
            raise LeagueRefused(gettext_noop("A game's result names a player twice or a stranger."))
        if any(self.places.get(p, 0) < 1 for p in placed):
            raise LeagueRefused(gettext_noop("Every player who did not forfeit needs a place."))

    def meetings(self) -> Iterable[tuple[P, P, int, int]]:
        """Each pair at the table with its mini-match's points: (a, b, a's, b's)."""
        for a, b in itertools.combinations(self.table, 2):
            yield (a, b, *_mini_match(self, a, b))


def _mini_match[P](result: Result[P], a: P, b: P) -> tuple[int, int]:
    lost_a, lost_b = a in result.forfeits, b in result.forfeits
    if lost_a or lost_b:  # a forfeit loses to everyone; two forfeits both lose
        return (0 if lost_a else WIN, 0 if lost_b else WIN)
    pa, pb = result.places[a], result.places[b]
    if pa == pb:
        return DRAW, DRAW
    return (WIN, LOSS) if pa < pb else (LOSS, WIN)


@dataclass(frozen=True)
class Row[P]:
    """One line of the standings. Wins, draws and losses count pairwise mini-matches; points
    are 2 a win, 1 a draw; `head_to_head` the points among the players level on points;
    `sonneborn_berger` exact (a Fraction)."""

    rank: int
    shared: bool
    player: P
    played: int
    wins: int
    draws: int
    losses: int
    points: int
    head_to_head: int
    sonneborn_berger: Fraction

    @property
    def place(self) -> str:
        """The rank as shown: "3" or, shared, "3="."""
        return f"{self.rank}=" if self.shared else str(self.rank)


def standings[P](players: Sequence[P], results: Iterable[Result[P]]) -> list[Row[P]]:
    """The table, best first: points, then head-to-head among the players level on points,
    then Sonneborn-Berger, then wins; rows equal on all four share their rank."""
    results = list(results)
    known = set(players)
    points = dict.fromkeys(players, 0)
    tally = {p: [0, 0, 0, 0] for p in players}  # played, wins, draws, losses
    pairs: list[tuple[P, P, int, int]] = []
    for result in results:
        if not set(result.table) <= known:
            raise LeagueRefused(gettext_noop("A game's result names a player outside the league."))
        for p in result.table:
            tally[p][0] += 1
        for a, b, got_a, got_b in result.meetings():
            pairs.append((a, b, got_a, got_b))
            for p, got in ((a, got_a), (b, got_b)):
                points[p] += got
                tally[p][{WIN: 1, DRAW: 2, LOSS: 3}[got]] += 1
    sb = dict.fromkeys(players, Fraction(0))
    h2h = dict.fromkeys(players, 0)
    for a, b, got_a, got_b in pairs:
        sb[a] += Fraction(got_a, WIN) * points[b]
        sb[b] += Fraction(got_b, WIN) * points[a]
        if points[a] == points[b]:
            h2h[a] += got_a
            h2h[b] += got_b

    def key(p: P) -> tuple[int, int, Fraction, int]:
        return (-points[p], -h2h[p], -sb[p], -tally[p][1])

    ordered = sorted(players, key=key)  # stable: equal rows keep the league's order
    rows = []
    for p in ordered:
        ahead = sum(1 for q in players if key(q) < key(p))
        level = sum(1 for q in players if key(q) == key(p))
        played, wins, draws, losses = tally[p]
        rows.append(
            Row(ahead + 1, level > 1, p, played, wins, draws, losses, points[p], h2h[p], sb[p])
        )
    return rows


def adjudicate[P](table: Sequence[P], scores: Mapping[P, int | float | Fraction]) -> dict[P, int]:
    """The places of a game unfinished at the league's end date: by its current score, higher
    first; equal scores share a place (1, 1, 3)."""
    return {p: 1 + sum(1 for q in table if scores[q] > scores[p]) for p in table}
