"""Two trees' Geared engines in one interpreter, timed alternately: the new/old ratio per pair.

Run: .venv/bin/python bench/geared_ab.py OLD_TREE SEATS GAMES PAIRS [NEW_TREE]

OLD_TREE is another checkout's root (e.g. `git archive REV games bench | tar -x -C DIR`); NEW_TREE
defaults to this one. Each pair plays GAMES seeded random games (bench/geared_games.py's: seeds
0..GAMES-1, target 1000, random bot against random bot) with each engine, old and new in turn
(the first of a pair alternates), in CPU time (time.process_time). Prints the median time of
each and the median, min and max of the pairs' ratios. Beside bench/geared_games.py, which times
whole processes, this leaves out start-up and sees each engine under the same machine load.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path


def load(tree: str):
    """(engine, random_bot) of the tree at `tree`, imported apart from any other tree's."""
    for name in [n for n in sys.modules if n == "games" or n.startswith("games.")]:
        del sys.modules[name]
    sys.path.insert(0, tree)
    # games/engines/geared/ since issue 35.2; an older tree has games/engines/geared/.
    package = (
        "games.engines.geared"
        if (Path(tree) / "games/engines/geared").is_dir()
        else "games.engines.geared"
    )
    try:
        engine = importlib.import_module(f"{package}.engine")
        bots = importlib.import_module(f"{package}.bots")
    finally:
        sys.path.remove(tree)
    return engine, bots.random_bot


def play(side, seats: int, games: int) -> float:
    """CPU seconds for the games."""
    engine, random_bot = side
    start = time.process_time()
    for seed in range(games):
        state = engine.new_game([str(i + 1) for i in range(seats)], seed=seed)
        rng = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.current_seat(state)
            legal = engine.legal_actions(state, seat)
            state = engine.apply(state, seat, random_bot({}, legal, rng))
    return time.process_time() - start


def main(argv: list[str]) -> None:
    old_tree, seats, games, pairs = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    new_tree = argv[4] if len(argv) > 4 else str(Path(__file__).resolve().parent.parent)
    old, new = load(old_tree), load(new_tree)
    play(old, seats, max(1, games // 10)), play(new, seats, max(1, games // 10))  # warm-up
    old_times, new_times, ratios = [], [], []
    for i in range(pairs):
        if i % 2:
            n = play(new, seats, games)
            o = play(old, seats, games)
        else:
            o = play(old, seats, games)
            n = play(new, seats, games)
        old_times.append(o)
        new_times.append(n)
        ratios.append(n / o)
    o, n = statistics.median(old_times), statistics.median(new_times)
    print(
        f"{seats} seats, {games} games, {pairs} pairs: old {o:.3f} s ({games / o:.0f} games/s), "
        f"new {n:.3f} s ({games / n:.0f} games/s); new/old median {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f})"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
