"""Ratings and statistics (issue 17, point 3): OpenSkill's Plackett-Luce rating per game kind,
updated in the game-over transaction, bots rated too; a player's page with games, win rates
per kind and seat count, and the rating's history as an SVG chart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.actions import deadlines, moves, rating_changes, record_import
from games.models import Game, Rating, RatingChange, Status
from games.reads import ratings, records
from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared

pytestmark = pytest.mark.django_db


def play_out(game: Game) -> Game:
    """To the end: people move greedily; bots (and their queued tasks) through catch_up."""
    for _ in range(3000):
        moves.catch_up(game.pk)
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = seat_to_act(game)
        if seat.user_id:
            moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def rating(kind: str, user=None, bot: str = "") -> Rating:
    return Rating.objects.get(kind=kind, user=user, bot=bot)


def test_the_winner_goes_up_and_the_loser_down_once_the_game_ends(alice, bob):
    game = advance(start_geared([alice, bob]), 2000)
    assert game.status == Status.FINISHED
    winner_seat = game.seats.get(position=int(game.result["winners"][0]))
    loser = bob if winner_seat.user == alice else alice
    won, lost = rating("geared", winner_seat.user), rating("geared", loser)
    prior = rating_changes.MODEL.rating()
    assert won.mu > prior.mu > lost.mu
    assert won.sigma < prior.sigma and lost.sigma < prior.sigma  # one game taught us something
    assert won.games == lost.games == 1
    assert won.display > lost.display
    changes = RatingChange.objects.filter(game=game)
    assert {c.place for c in changes} == {1, 2}
    # Rated once: a second look at the finished game changes nothing.
    assert rating_changes.record_game(game) == []
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_game_in_play_rates_nobody(alice, bob):
    game = advance(start_geared([alice, bob], target=1000), 2)
    assert game.is_active
    assert not Rating.objects.filter(user__in=[alice, bob]).exists()
    assert not RatingChange.objects.filter(game=game).exists()


def test_three_places_rank_three_ratings_in_order(alice, bob, carol):
    game = play_out(start_geared([alice, bob, carol]))
    places = ratings.places_of(game.result)
    by_place = sorted(game.seats.all(), key=lambda s: places[s.seat_id])
    mus = [rating("geared", s.user).mu for s in by_place]
    assert mus == sorted(mus, reverse=True)  # a better place, a higher rating (ties: equal)
    assert mus[0] > mus[-1]


def test_bots_are_rated_so_a_player_can_compare(alice):
    game = play_out(start_geared([alice], bots=("greedy", "random")))
    greedy, rand, mine = (
        rating("geared", bot="greedy"),
        rating("geared", bot="random"),
        rating("geared", alice),
    )
    assert greedy.games == rand.games == mine.games == 1
    assert RatingChange.objects.filter(game=game).count() == 3


def test_two_bots_of_one_kind_in_a_game_count_as_one_game_of_that_bot(alice):
    game = play_out(start_geared([alice], bots=("greedy", "greedy")))
    greedy = rating("geared", bot="greedy")
    assert greedy.games == 1
    assert RatingChange.objects.filter(game=game, rating=greedy).count() == 1


def test_a_player_who_resigns_is_rated_last_and_their_bot_not_at_all(alice, bob, carol):
    game = start_geared([alice, bob, carol])
    deadlines.resign(carol, game.pk)
    game = play_out(game)
    change = RatingChange.objects.get(game=game, rating=rating("geared", carol))
    assert change.place == 3
    assert change.mu_after < change.mu_before
    assert not RatingChange.objects.filter(game=game, rating__bot="greedy").exists()  # stand-in


def test_an_imported_record_rates_nobody(alice, bob, carol):
    game = advance(start_geared([alice, bob]), 2000)
    before = list(Rating.objects.values_list("pk", "mu", "sigma", "games"))
    record = records.export(game)
    for seat, name in zip(record["seats"], ("Ann", "Ben"), strict=True):
        seat["name"] = name  # "Alice" and "Bob" are usernames here (issue 22)
    record_import.import_record(carol, records.dumps(record))
    assert list(Rating.objects.values_list("pk", "mu", "sigma", "games")) == before
    assert RatingChange.objects.count() == 2


def test_the_player_page_shows_rating_games_win_rate_and_a_chart(alice, bob, carol):
    games = [advance(start_geared([alice, bob]), 2000) for _ in range(3)]
    wins = sum(g.seats.get(position=int(g.result["winners"][0])).user_id == alice.pk for g in games)
    client = client_for(carol)  # any logged-in player may look
    page = client.get(reverse("player", args=["alice"])).content.decode()
    assert "<h1>Alice</h1>" in page
    assert "Geared: Build Your Bike" in page
    section = page[page.index("Geared: Build Your Bike") :]
    assert re.search(r"<dt>Games</dt><dd>3</dd>", section)
    assert f"<dt>Won</dt><dd>{wins} ({round(100 * wins / 3)}%)</dd>" in section
    shown = rating("geared", alice)
    assert f">{shown.display}<abbr" in section  # provisional after three games: "1523?"
    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', page).group(1)
    assert len(points.split()) == 4  # the start and one point per game
    assert '<th scope="row">2</th><td>3</td>' in page  # all three were 2-player games
    assert "Out of Gears" not in section  # never played: not shown


def test_a_new_player_page_says_no_game_yet(alice):
    client = client_for(alice)
    page = client.get(reverse("player", args=["alice"])).content.decode()
    assert "No finished game yet" in page and reverse("lobby") in page


def test_the_bot_page_and_unknown_players(alice):
    play_out(start_geared([alice], bots=("greedy",)))
    client = client_for(alice)
    page = client.get(reverse("bot_player", args=["greedy"])).content.decode()
    assert "<h1>Greedy bot</h1>" in page and "<dt>Games</dt><dd>1</dd>" in page
    assert client.get(reverse("bot_player", args=["clever"])).status_code == 404
    assert client.get(reverse("player", args=["nobody"])).status_code == 404
    client.logout()  # a player's face is public (issue 27.1), as on lichess
    assert client.get(reverse("player", args=["alice"])).status_code == 200


def test_the_profile_links_to_the_statistics(alice):
    page = client_for(alice).get(reverse("profile")).content.decode()
    assert reverse("player", args=["alice"]) in page
