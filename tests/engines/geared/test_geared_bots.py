"""The Geared bots: legal choices from a view only; greedy beats random."""

import random

from games.engines.geared import engine
from games.engines.geared.bots import BOTS, greedy_bot, random_bot


def play_match(seed: int, bots: list[str], target: int = 1000) -> dict:
    seats = [str(i + 1) for i in range(len(bots))]
    state = engine.new_game(seats, seed=seed, options={"target": target})
    rng = random.Random(seed)
    for _ in range(5000):
        if engine.is_over(state):
            break
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        action = BOTS[bots[seats.index(seat)]](engine.view(state, seat), legal, rng)
        assert action in legal
        state = engine.apply(state, seat, action)
    assert engine.is_over(state)
    return engine.result(state)


def test_bots_choose_legal_actions_for_two_to_six_seats():
    for n in range(2, 7):
        play_match(n, ["greedy", "random", "greedy", "random", "greedy", "random"][:n], 500)
    assert {"random": random_bot, "greedy": greedy_bot} == BOTS


def test_greedy_beats_random_in_at_least_70_percent_of_200_games():
    wins = 0
    for seed in range(200):
        greedy_seat = "1" if seed % 2 == 0 else "2"
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        wins += greedy_seat in play_match(seed, bots)["winners"]
    assert wins / 200 >= 0.70
