"""Benchmark of the Geared engine: full random games per second and the cost of legal_actions.

Run: .venv/bin/python bench/geared_engine.py [--profile]
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.geared import engine  # noqa: E402
from games.engines.geared.bots import random_bot  # noqa: E402


def random_game(seed: int, n: int, target: int = 1000) -> int:
    """One full game, random bot against random bot; returns the number of actions."""
    seats = [str(i + 1) for i in range(n)]
    state = engine.new_game(seats, seed=seed, options={"target": target})
    rng = random.Random(seed)
    steps = 0
    while not engine.is_over(state):
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        # The bench's bot needs no view: random_bot reads only the legal actions.
        state = engine.apply(state, seat, random_bot({}, legal, rng))
        steps += 1
    return steps


def games_per_second(n: int, games: int) -> tuple[float, float, float]:
    """(games per CPU second, games per wall-clock second, actions per game).

    CPU time (time.process_time) is what one core spends on the games; it is the figure to
    compare on a machine shared with other jobs, where wall-clock time also counts waiting."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = sum(random_game(seed, n) for seed in range(games))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / cpu, games / wall, steps / games


def busy_state() -> dict:
    """A mid-game 4-seat position with many builds on the table."""
    best = None
    for seed in range(30):
        state = engine.new_game(["1", "2", "3", "4"], seed=seed, options={"target": 100_000})
        rng = random.Random(seed)
        for _ in range(60):
            seat = engine.current_seat(state)
            legal = engine.legal_actions(state, seat)
            plays = [a for a in legal if a["type"] == "play"] or legal
            state = engine.apply(state, seat, rng.choice(plays))
        size = len(engine.legal_actions(state, engine.current_seat(state)))
        if best is None or size > best[0]:
            best = (size, state)
    return best[1]


def legal_actions_cost(state: dict, calls: int = 2000) -> tuple[float, int]:
    seat = engine.current_seat(state)
    start = time.process_time()
    for _ in range(calls):
        legal = engine.legal_actions(state, seat)
    return (time.process_time() - start) / calls * 1e6, len(legal)


def main() -> None:
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.enable()
        for seed in range(100):
            random_game(seed, 4)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    for n in (2, 4):
        rate, wall_rate, length = games_per_second(n, 300)
        print(
            f"{n} seats: {rate:7.1f} full random games/s of CPU time (target 1000; wall clock"
            f" {wall_rate:.1f}/s; {length:.0f} actions/game)"
        )
    us, size = legal_actions_cost(busy_state())
    print(
        f"legal_actions on a busy 4-seat mid-game state: {us:.1f} us/call of CPU time"
        f" ({size} actions)"
    )


if __name__ == "__main__":
    main()
