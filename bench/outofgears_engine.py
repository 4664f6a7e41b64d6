"""Benchmark of the Out of Gears engine: resolved turns and full random games per second.

Run: .venv/bin/python bench/outofgears_engine.py [--seconds 2] [--repeat 5] [--profile]
"Full random game": every seat picks uniformly among legal_actions() each turn, apply(), then
resolve(); new_game() included. The "sampled" figures pick a random program without listing
every legal one (what a simulation that does not need the list would do). Rates are per second
of CPU time (time.process_time: what one core spends, the figure to compare on a machine shared
with other jobs); with --repeat N each figure is the median of N runs.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.outofgears import engine as E  # noqa: E402
from games.engines.outofgears.common import ACTIONS  # noqa: E402


def _listed(state, seat, rng):
    return rng.choice(E.legal_actions(state, seat))


def _sampled(state, seat, rng):
    robots = state["seat_robots"][seat]
    actions = rng.sample(ACTIONS, len(robots))
    numbers = state["in_play"]
    return {
        "type": "program",
        "programs": [
            {"robot": r, "action": a, "number": rng.choice(numbers)}
            for r, a in zip(robots, actions, strict=True)
        ],
    }


def play(seed: int, players: int, advanced: bool, pick) -> int:
    seats = [str(i) for i in range(1, players + 1)]
    state = E.new_game(seats, seed=seed, options={"advanced": advanced})
    rng = random.Random(seed)
    turns = 0
    while not E.is_over(state):
        for seat in seats:
            state = E.apply(state, seat, pick(state, seat, rng))
        state = E.resolve(state)
        turns += 1
    return turns


def measure(players: int, advanced: bool, pick, seconds: float) -> tuple[float, float, float]:
    """(games per CPU second, turns per CPU second, turns per game), seeds 0, 1, 2, ..."""
    games = turns = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        turns += play(games, players, advanced, pick)
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, turns / elapsed, turns / games


def resolve_only(players: int, advanced: bool, seconds: float) -> float:
    """Resolved turns per second, programs already in (resolve() alone)."""
    seats = [str(i) for i in range(1, players + 1)]
    rng = random.Random(1)
    ready = []
    for seed in range(200):
        state = E.new_game(seats, seed=seed, options={"advanced": advanced})
        for seat in seats:
            state = E.apply(state, seat, _sampled(state, seat, rng))
        ready.append(state)
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in ready:
            E.resolve(state)
        count += len(ready)
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=1, help="print the median of N runs")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    cases = [("basic 3", 3, False), ("basic 8", 8, False), ("advanced 4", 4, True)]
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _, players, advanced in cases:
            for seed in range(100):
                play(seed, players, advanced, _listed)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(20)
        return
    print(f"{'game':<11} {'games/s':>9} {'turns/s':>9} {'turns/game':>10} "
          f"{'sampled games/s':>16} {'resolve() turns/s':>18}")  # fmt: skip
    for name, players, advanced in cases:
        runs = [
            (
                *measure(players, advanced, _listed, args.seconds),
                measure(players, advanced, _sampled, args.seconds)[0],
                resolve_only(players, advanced, args.seconds / 2),
            )
            for _ in range(args.repeat)
        ]
        games, turns, per_game, sampled, resolved = (
            statistics.median(c) for c in zip(*runs, strict=True)
        )
        print(f"{name:<11} {games:>9.0f} {turns:>9.0f} {per_game:>10.1f} "
              f"{sampled:>16.0f} {resolved:>18.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
