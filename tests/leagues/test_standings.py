"""Issue 38.3-4: a league's standings (pairwise mini-matches 2/1/0, then head-to-head,
Sonneborn-Berger, wins, a shared place), forfeits, and the end date's adjudication."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from games.leagues import LeagueRefused, Result, adjudicate, standings


def duel(a, b, winner=None):
    """A finished 2-seat game; no winner is a draw."""
    places = {a: 1, b: 1} if winner is None else {winner: 1, (b if winner == a else a): 2}
    return Result((a, b), places)


def table(rows):
    return [(r.place, r.player, r.points, r.head_to_head, r.sonneborn_berger) for r in rows]


def test_sonneborn_berger_breaks_a_tie_that_points_and_head_to_head_leave():
    """A 4-player round robin of 2-seat tables, by hand:

    alice-bob draw, alice beats carol, dave beats alice,
    bob beats dave, carol beats bob, carol beats dave.
    points: carol 2+2+0 = 4; alice 1+2+0 = 3; bob 1+2+0 = 3; dave 2+0+0 = 2.
    alice and bob are level on 3: their one meeting was a draw, head-to-head 1 each.
    SB alice = bob's 3 x 1/2 (draw) + carol's 4 x 1 (win) + dave's 2 x 0 = 11/2.
    SB bob   = alice's 3 x 1/2 + dave's 2 x 1 + carol's 4 x 0 = 7/2.
    wins: alice 1, bob 1 (not needed). So: 1 carol, 2 alice, 3 bob, 4 dave."""
    results = [
        duel("alice", "bob"),
        duel("alice", "carol", "alice"),
        duel("alice", "dave", "dave"),
        duel("bob", "dave", "bob"),
        duel("carol", "bob", "carol"),
        duel("carol", "dave", "carol"),
    ]
    rows = standings(["alice", "bob", "carol", "dave"], results)
    assert table(rows) == [
        ("1", "carol", 4, 0, Fraction(5)),
        ("2", "alice", 3, 1, Fraction(11, 2)),
        ("3", "bob", 3, 1, Fraction(7, 2)),
        ("4", "dave", 2, 0, Fraction(3)),
    ]
    alice = rows[1]
    assert (alice.played, alice.wins, alice.draws, alice.losses) == (3, 1, 1, 1)


def test_head_to_head_breaks_a_tie_on_points_before_sonneborn_berger():
    """alice beats bob, carol beats alice, bob beats carol, alice, bob beat dave, dave beats
    carol: alice 4, bob 4, carol 2, dave 2. alice beat bob (h2h 2-0); dave beat carol."""
    results = [
        duel("alice", "bob", "alice"),
        duel("alice", "carol", "carol"),
        duel("bob", "carol", "bob"),
        duel("alice", "dave", "alice"),
        duel("bob", "dave", "bob"),
        duel("carol", "dave", "dave"),
    ]
    rows = standings(["bob", "alice", "dave", "carol"], results)
    assert [(r.place, r.player, r.points, r.head_to_head) for r in rows] == [
        ("1", "alice", 4, 2),
        ("2", "bob", 4, 0),
        ("3", "dave", 2, 2),
        ("4", "carol", 2, 0),
    ]


def test_players_equal_on_everything_share_their_place():
    rows = standings(
        ["alice", "bob", "carol"],
        [duel("alice", "bob"), duel("carol", "alice", "carol"), duel("carol", "bob", "carol")],
    )
    assert [(r.place, r.player, r.shared) for r in rows] == [
        ("1", "carol", False),
        ("2=", "alice", True),
        ("2=", "bob", True),
    ]


def test_a_player_without_a_finished_game_stands_at_nought():
    rows = standings(["alice", "bob", "carol"], [duel("alice", "bob", "bob")])
    assert [(r.place, r.player, r.played, r.points) for r in rows] == [
        ("1", "bob", 1, 2),
        ("2=", "alice", 1, 0),
        ("2=", "carol", 0, 0),
    ]


def test_a_multiplayer_table_is_scored_as_pairwise_mini_matches_with_shared_places():
    """4 seats, alice 1st, bob and carol 2nd together, dave 4th: alice beats three (6),
    bob and carol each lose to alice, draw each other, beat dave (3), dave loses three (0)."""
    result = Result(
        ("dave", "carol", "bob", "alice"), {"alice": 1, "bob": 2, "carol": 2, "dave": 4}
    )
    rows = standings(["alice", "bob", "carol", "dave"], [result])
    assert [(r.place, r.player, r.points, r.wins, r.draws, r.losses) for r in rows] == [
        ("1", "alice", 6, 3, 0, 0),
        ("2=", "bob", 3, 1, 1, 1),
        ("2=", "carol", 3, 1, 1, 1),
        ("4", "dave", 0, 0, 0, 3),
    ]


def test_two_seats_are_win_two_draw_one_loss_nought():
    rows = standings(["alice", "bob"], [duel("alice", "bob", "alice"), duel("alice", "bob")])
    assert [(r.player, r.points, r.wins, r.draws, r.losses) for r in rows] == [
        ("alice", 3, 1, 1, 0),
        ("bob", 1, 0, 1, 1),
    ]


def test_a_forfeit_is_placed_last_and_earns_nothing():
    """bob timed out at a 3-seat table (the bot that finished his seat placed 1st: ignored):
    alice 1st beats carol and bob (4), carol beats bob (2), bob loses both (0)."""
    result = Result(
        ("alice", "bob", "carol"), {"alice": 1, "bob": 1, "carol": 2}, frozenset({"bob"})
    )
    rows = standings(["alice", "bob", "carol"], [result])
    assert [(r.player, r.points, r.losses) for r in rows] == [
        ("alice", 4, 0),
        ("carol", 2, 1),
        ("bob", 0, 2),
    ]


def test_two_forfeits_at_one_table_both_lose_their_meeting():
    result = Result(("alice", "bob", "carol"), {"carol": 1}, frozenset({"alice", "bob"}))
    rows = standings(["alice", "bob", "carol"], [result])
    assert [(r.place, r.player, r.points, r.losses) for r in rows] == [
        ("1", "carol", 4, 0),
        ("2=", "alice", 0, 2),
        ("2=", "bob", 0, 2),
    ]


def test_a_result_without_a_place_or_with_a_stranger_is_refused():
    with pytest.raises(LeagueRefused):
        Result(("alice", "bob"), {"alice": 1})
    with pytest.raises(LeagueRefused):
        standings(["alice", "bob"], [duel("alice", "mallory", "alice")])


def test_an_unfinished_game_is_adjudicated_by_its_current_score_ties_sharing():
    assert adjudicate(
        ("alice", "bob", "carol", "dave"), {"alice": 7, "bob": 12, "carol": 7, "dave": 3}
    ) == {
        "bob": 1,
        "alice": 2,
        "carol": 2,
        "dave": 4,
    }


def test_importing_the_leagues_core_loads_no_django():
    code = (
        "import sys, games.leagues, games.leagues.schedule, games.leagues.standings\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
