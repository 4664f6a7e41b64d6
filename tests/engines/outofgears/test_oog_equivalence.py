"""Behaviour lock for the Out of Gears engine: seeded games must replay to the recorded digests.

The fixture (equivalence_digests.json) was generated from the engine before `resolve` was split
into its rule steps and before `legal_actions` was cached; every step of every game folds in a
digest of the state (so of apply's and resolve's results), of legal_actions (same list, same
order, same key order; every seat's on every sixth step), of apply's IllegalMove message for a
mutated, often illegal, program, of timeout_actions and, every 25th step, of every seat's view.
A game that differs fails with its seed, so it can be replayed against git history.

Regenerate (only when a rules change is intended): .venv/bin/python
tests/engines/outofgears/test_oog_equivalence.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games.engines.outofgears import engine as E  # noqa: E402

FIXTURE = Path(__file__).with_name("equivalence_digests.json")
GAMES = 120
JUNK = [None, 0, 1, 8, 9, -1, "3", 2.0, True, "harvest", "defend", [], {}]


def _setup(seed: int) -> tuple[list[str], dict]:
    advanced = seed % 3 == 0
    players = 2 + seed % 3 if advanced else 2 + seed % 7
    options: dict = {"advanced": advanced}
    if seed % 4 == 1:
        options["max_turns"] = 1 + seed % 12
    return [f"s{i}" for i in range(players)], options


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _mutate(rng: random.Random, state: dict, legal: list[dict]) -> object:
    """A program that may or may not be legal."""
    base = json.loads(json.dumps(rng.choice(legal)))
    entries = base["programs"]
    choice = rng.randrange(9)
    if choice == 0:
        entries[0][rng.choice(["robot", "action", "number"])] = rng.choice(JUNK)
    elif choice == 1:
        entries[-1]["number"] = rng.randint(0, 9)
    elif choice == 2:
        entries[0]["robot"] = rng.randint(1, 8)
    elif choice == 3 and len(entries) == 2:
        entries[1]["action"] = entries[0]["action"]
    elif choice == 4:
        entries.reverse()
        if rng.random() < 0.5:
            entries.pop()
    elif choice == 5:
        entries.append(dict(entries[0]))
    elif choice == 6:
        del entries[0][rng.choice(["robot", "action", "number"])]
    elif choice == 7:
        base[rng.choice(["extra", "type", "programs"])] = rng.choice(JUNK)
    else:
        base = rng.choice(JUNK)
    return base


def play_game(seed: int) -> dict:
    """One seeded game; returns its record (steps and the folded digest)."""
    seats, options = _setup(seed)
    state = E.new_game(seats, seed=seed, options=options)
    rng = random.Random(seed * 7919 + 3)
    fold = hashlib.sha256()
    history: list[tuple[dict, str]] = []
    steps = 0

    def add(tag: str, value: object) -> None:
        fold.update(tag.encode())
        fold.update(json.dumps(value).encode())
        fold.update(b"\n")

    while True:
        digest = _digest(state)
        history.append((state, digest))
        add("state", digest)
        if E.is_over(state):
            add("result", E.result(state))
            break
        steps += 1
        assert steps < 5000, "the game did not end"
        add("timeout", E.timeout_actions(state))
        if steps % 6 == 0:
            add("legal", [E.legal_actions(state, s) for s in seats])
        if steps % 25 == 0:
            add("views", [_digest(E.view(state, s)) for s in [*seats, None]])
        if E.all_programmed(state):
            state = E.resolve(state)
            continue
        seat = rng.choice([*seats, "nobody"] if rng.random() < 0.05 else seats)
        legal = E.legal_actions(state, seat) or E.legal_actions(state, seats[0])
        add("listed", len(legal))
        roll = rng.random()
        if roll < 0.3:
            action = _mutate(rng, state, legal)
        elif roll < 0.35:
            action = E.timeout_actions(state).get(seat, legal[0])
        else:
            action = rng.choice(legal)
        add("try", [seat, action])
        try:
            state = E.apply(state, seat, action)
        except E.IllegalMove as error:
            add("illegal", error.message)
    # No later call changed an earlier state (states may share unchanged parts).
    for i, (old, digest) in enumerate(history):
        assert _digest(old) == digest, f"seed {seed}: state {i} was mutated later"
    return {"seed": seed, "seats": len(seats), "steps": steps, "digest": fold.hexdigest()}


def _recorded() -> dict[int, dict]:
    return {g["seed"]: g for g in json.loads(FIXTURE.read_text())["games"]}


@pytest.mark.parametrize("block", range(5))
def test_seeded_games_replay_to_the_recorded_digests(block):
    recorded = _recorded()
    assert len(recorded) == GAMES
    for seed in range(block, GAMES, 5):
        assert play_game(seed) == recorded[seed], f"seed {seed} differs from the recording"


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: test_oog_equivalence.py --write")
    games = [play_game(seed) for seed in range(GAMES)]
    FIXTURE.write_text(json.dumps({"games": games}, indent=1) + "\n")
    print(f"wrote {len(games)} games, {sum(g['steps'] for g in games)} steps")
