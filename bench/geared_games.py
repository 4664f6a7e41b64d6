"""Full random games of Geared, for timing one tree's engine against another's from outside.

Run: .venv/bin/python bench/geared_games.py SEATS GAMES [--tree DIR]

Plays GAMES seeded games (seeds 0..GAMES-1, target 1000) at SEATS seats, random bot against
random bot (bench/geared_engine.py's random_game), with the engine of DIR (default: this tree),
and prints the actions played. Meant for farm-bench, which times the whole process:

    farm-bench -n 9 --vs '.venv/bin/python bench/geared_games.py 4 150 --tree /tmp/engine-old' \
        -- .venv/bin/python bench/geared_games.py 4 150
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

args = sys.argv[1:]
tree = Path(__file__).resolve().parent.parent
if "--tree" in args:
    i = args.index("--tree")
    tree = Path(args[i + 1])
    del args[i : i + 2]
sys.path.insert(0, str(tree))

from games.engines.geared import engine  # noqa: E402
from games.engines.geared.bots import random_bot  # noqa: E402


def random_game(seed: int, n: int, target: int = 1000) -> int:
    seats = [str(i + 1) for i in range(n)]
    state = engine.new_game(seats, seed=seed, options={"target": target})
    rng = random.Random(seed)
    steps = 0
    while not engine.is_over(state):
        seat = engine.current_seat(state)
        state = engine.apply(state, seat, random_bot({}, engine.legal_actions(state, seat), rng))
        steps += 1
    return steps


if __name__ == "__main__":
    seats, games = int(args[0]), int(args[1])
    print(sum(random_game(seed, seats) for seed in range(games)))
