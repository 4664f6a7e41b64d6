"""Behaviour lock for the Geared engine: seeded games must replay to exactly the recorded digests.

The fixture (equivalence_digests.json) was generated from the engine before its performance
work; every step of every game folds in a digest of the state, of legal_actions (same list, same
order, same key order), of apply's result or IllegalMove message (for the chosen action and for a
mutated, often illegal, one), of canonical_action and, in the greedy games, of the view and the
bot's choice. A game that differs fails with its seed, so it can be replayed against git history.

`make test` replays the first 100 games (every seat count and target, in every block); `make
deep-test` all 300 (GEARED_EQUIVALENCE_GAMES=300): the 300 cost half a minute of CPU on a
machine the suite keeps busy.

Regenerate (only when a rules change is intended): .venv/bin/python
tests/engines/geared/test_geared_equivalence.py --write
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games.engines.geared import engine  # noqa: E402
from games.engines.geared.bots import greedy_bot, random_bot  # noqa: E402

FIXTURE = Path(__file__).with_name("equivalence_digests.json")
GAMES = 300
CHECKED = min(GAMES, int(os.environ.get("GEARED_EQUIVALENCE_GAMES", "100")))
TARGETS = (300, 600, 1000)
JUNK = [None, "new", "new1", "new2", "new3", 0, 1, 2, 3, 5, 7, 95, 96, -1, [1], "x", True, 1.0]


def _seats(seed: int) -> list[str]:
    return [str(i + 1) for i in range(2 + seed % 5)]


def _target(seed: int) -> int:
    return TARGETS[seed % 3]


def _state_digest(state: dict) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def _mutate(rng: random.Random, state: dict, seat: str, legal: list[dict]) -> tuple[str, dict]:
    """A seat and an action that may or may not be legal."""
    base = json.loads(json.dumps(rng.choice(legal))) if legal else {"type": "pass"}
    hand = state["hands"][seat]
    choice = rng.randrange(10)
    if choice == 0:
        base["type"] = rng.choice(
            ["play", "remove", "steal", "swap", "rearrange", "discard", "pass", "zoom", 3]
        )
    elif choice == 1 and "card" in base:
        base["card"] = rng.choice([rng.randrange(-1, 97), *hand] if hand else [0])
    elif choice == 2 and "cards" in base:
        base["cards"] = [rng.choice([*hand, rng.randrange(-1, 97)]) for _ in base["cards"]]
    elif choice == 3:
        key = rng.choice(["to", "level", "target", "mine", "theirs", "builds", "cards", "card"])
        base[key] = rng.choice(JUNK)
    elif choice == 4 and len(base) > 1:
        del base[rng.choice([k for k in base if k != "type"])]
    elif choice == 5 and "builds" in base:
        base["builds"] = [
            rng.choice(["new1", "new2", "new3", "new4", 1, 2, 3, 4, 5, 6]) for _ in base["builds"]
        ]
    elif choice == 6 and hand:
        base = {
            "type": "play",
            "cards": rng.sample(hand, min(len(hand), rng.randint(1, 3))),
            "builds": ["new1", "new1", "new2"][: min(len(hand), 3)],
        }
        if rng.random() < 0.5:
            base["level"] = rng.randint(0, 6)
    elif choice == 7:
        base["extra"] = 1
    elif choice == 8:
        part_ids = [c for o in state["seats"] for b in state["builds"][o] for c in b["cards"]]
        if part_ids:
            for key in ("target", "mine", "theirs", "card"):
                if key in base and rng.random() < 0.5:
                    base[key] = rng.choice(part_ids)
    if rng.random() < 0.05:
        seat = rng.choice([*state["seats"], "nobody"])
    return seat, base


def play_game(seed: int) -> dict:
    """One seeded game; returns its record (steps and the folded digest)."""
    seats = _seats(seed)
    greedy = seed % 10 == 7
    state = engine.new_game(seats, seed=seed, options={"target": _target(seed)})
    rng = random.Random(seed * 7919 + 1)
    fold = hashlib.sha256()
    history: list[tuple[dict, str]] = []
    steps = 0

    def add(tag: str, value: object) -> None:
        fold.update(tag.encode())
        fold.update(json.dumps(value).encode())
        fold.update(b"\n")

    while True:
        digest = _state_digest(state)
        history.append((state, digest))
        add("state", digest)
        if engine.is_over(state):
            add("result", engine.result(state))
            break
        steps += 1
        assert steps < 5000, "the game did not end"
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        # A lazy sequence: the list, for JSON, from a second one, so that the choices below
        # build their actions by index (games/engines/geared/legal.py) rather than from that list.
        add("legal", list(engine.legal_actions(state, seat)))
        if steps % 7 == 0:
            other = seats[(seats.index(seat) + 1) % len(seats)]
            add("other", list(engine.legal_actions(state, other)))
        if rng.random() < 0.35:
            who, candidate = _mutate(rng, state, seat, legal)
            add("try", [who, candidate])
            try:
                after = engine.apply(state, who, candidate)
            except engine.IllegalMove as error:
                add("illegal", error.message)
            else:
                add("canonical", engine.canonical_action(state, who, candidate))
                add("applied", _state_digest(after))
                state = after
                continue
        if greedy and seats.index(seat) % 2 == 0:
            v = engine.view(state, seat)
            add("view", hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest())
            action = greedy_bot(v, legal, rng)
        else:
            action = random_bot({}, legal, rng)
        add("action", action)
        state = engine.apply(state, seat, action)
    # No later apply changed an earlier state (states may share unchanged parts).
    for i, (old, digest) in enumerate(history):
        assert _state_digest(old) == digest, f"seed {seed}: state {i} was mutated later"
    return {"seed": seed, "seats": len(seats), "steps": steps, "digest": fold.hexdigest()}


def _recorded() -> dict[int, dict]:
    return {g["seed"]: g for g in json.loads(FIXTURE.read_text())["games"]}


@pytest.mark.parametrize("block", range(10))
def test_seeded_games_replay_to_the_recorded_digests(block):
    recorded = _recorded()
    assert len(recorded) == GAMES
    for seed in range(block, CHECKED, 10):
        assert play_game(seed) == recorded[seed], f"seed {seed} differs from the recording"


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: test_geared_equivalence.py --write")
    games = [play_game(seed) for seed in range(GAMES)]
    FIXTURE.write_text(json.dumps({"games": games}, indent=1) + "\n")
    print(f"wrote {len(games)} games, {sum(g['steps'] for g in games)} steps")
