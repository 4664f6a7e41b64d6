"""Issue 25.2: every change reaches an open page without a reload. A page learns of a change by
its stream's event or by its poll, both of which compare the version the page holds
(docs/live.md): each write path below moves the game's version in its transaction, and the
page then drawn says the new truth. Each test would fail on the code before 25.2 (the version
stayed, or the page said the old thing)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.actions import moderation, tables, time_off
from games.models import Game, Status
from tests.support.games import advance, client_for, seat_to_act, start_geared, start_oog
from tests.support.pages import text
from tests.support.users import make_user

pytestmark = pytest.mark.django_db

DAY = 86400


@pytest.fixture
def moderator(django_user_model):
    return make_user(django_user_model, "mod", is_staff=True, is_superuser=True)


def changed(client, game: Game, seen: int) -> bool:
    """What the page's poll (and, with the same version, its stream) says to a page at `seen`."""
    response = client.get(reverse("game_poll", args=[game.pk]), {"v": seen})
    return response.status_code == 200 and "game" in response["X-Refresh"]


def fragment(client, game: Game) -> str:
    response = client.get(reverse("game_fragment", args=[game.pk]))
    assert response.status_code == 200
    return " ".join(text(response).split())


def timed(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(
        turn_seconds=DAY, deadline=timezone.now() + timedelta(days=1)
    )
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("start", [start_geared, start_oog], ids=["geared", "outofgears"])
def test_a_moderators_abort_says_so_and_why_and_no_form_is_left(start, alice, bob, moderator):
    game = start([alice, bob])
    client = client_for(alice)
    seen = game.version
    moderation.abort_game(moderator, game.pk, "Both players asked for it in a report.")
    assert changed(client, game, seen)
    page = fragment(client, game)
    assert "A moderator aborted this game." in page
    assert "Both players asked for it in a report." in page
    assert "program your robot" not in page and "Your turn" not in page
    assert 'name="version"' not in page, "no move form on an aborted game"
    # A reload says the same (the whole page, not only the fragment).
    whole = " ".join(text(client.get(game.get_absolute_url())).split())
    assert "A moderator aborted this game." in whole


def test_a_deadline_extended_by_a_moderator_reaches_the_page(alice, bob, moderator):
    game = timed(start_geared([alice, bob], target=1000))
    client = client_for(alice)
    seen = game.version
    moderation.extend_deadline(moderator, game.pk, 48, "Power cut.")
    assert changed(client, game, seen)
    assert "due 2" in fragment(client, game)  # "due 2 days, 23 hours"


def test_a_time_limit_set_by_a_moderator_reaches_the_page(alice, bob, moderator):
    game = start_geared([alice, bob], target=1000)
    client = client_for(alice)
    seen = game.version
    assert "· due" not in fragment(client, game)
    moderation.set_time_limit(moderator, game.pk, DAY, "Stalled.")
    assert changed(client, game, seen)
    assert "· due" in fragment(client, game)


def test_a_vacation_on_and_off_reaches_the_others_pages(alice, bob, carol):
    game = timed(start_geared([alice, bob, carol], target=1000))
    absent = seat_to_act(game).user
    other = client_for(next(u for u in (alice, bob, carol) if u != absent))
    seen = game.version
    time_off.take(absent, timezone.localdate() + timedelta(days=5))
    assert changed(other, game, seen)
    page = fragment(other, game)
    assert f"paused: {absent.name} is away until" in page and "· due" not in page
    game.refresh_from_db()
    seen = game.version
    absent.refresh_from_db()
    time_off.come_back(absent)
    assert changed(other, game, seen)
    page = fragment(other, game)
    assert "paused" not in page and "· due" in page


def test_a_vacation_keeps_an_out_of_gears_program_in_progress_good(alice, bob):
    """The version moves on, but a program is stale only on a new turn (turn_version)."""
    game = timed(start_oog([alice, bob]))
    seen = game.version
    time_off.take(alice, timezone.localdate() + timedelta(days=5))
    game.refresh_from_db()
    assert game.version > seen and game.turn_version <= seen


def test_a_rematch_offer_and_its_acceptance_reach_the_end_screens(alice, bob):
    game = advance(start_geared([alice, bob], target=300), 900)
    assert game.status == Status.FINISHED
    at_alice, at_bob = client_for(alice), client_for(bob)
    seen = game.version
    tables.rematch(alice, game.pk)
    assert changed(at_bob, game, seen)
    assert "offers a rematch" in fragment(at_bob, game)
    game.refresh_from_db()
    seen = game.version
    tables.rematch(bob, game.pk)
    assert changed(at_alice, game, seen)
    assert "Everyone accepted: the rematch has begun." in fragment(at_alice, game)


def test_a_seat_given_to_a_bot_reaches_the_page(alice, bob, carol, moderator):
    game = start_geared([alice, bob, carol], target=1000)
    seat = game.seats.get(user=carol)
    client = client_for(alice)
    seen = game.version
    moderation.replace_seat(moderator, seat.pk, "Gone for good.")
    assert changed(client, game, seen)
    assert re.search(r"\bbot\b", fragment(client, game), re.I)


def test_my_games_lists_a_game_aborted_in_play_under_finished(alice, bob, moderator):
    game = start_geared([alice, bob])
    client = client_for(alice)
    assert f"#{game.pk}" in text(client.get(reverse("my_games")))
    moderation.abort_game(moderator, game.pk, "Duplicate.")
    page = text(client.get(reverse("my_games")))
    finished = page[page.index("<h2>Finished</h2>") :]
    assert f"#{game.pk}" in finished and "Aborted by a moderator" in finished
    assert f"#{game.pk}" in text(client.get(reverse("finished_games")))


def test_an_aborted_public_games_spectators_are_told_but_not_why(alice, bob, moderator):
    """The reason is the players' (a moderator may name a report); a spectator sees the fact."""
    game = start_geared([alice, bob], public=True)
    moderation.abort_game(moderator, game.pk, "Reported by bob for abuse.")
    page = " ".join(text(Client().get(game.get_absolute_url())).split())
    assert "A moderator aborted this game." in page
    assert "Reported by bob" not in page


def test_a_table_its_host_called_off_says_so_to_whoever_had_joined(alice, bob):
    """The host leaving calls the table off: the joined player's open page reloads on the
    change (its poll says so) and finds a page saying what happened, not an error (a 500)."""
    table = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=3))
    tables.join_game(bob, table.pk, token=table.join_token)
    client = client_for(bob)
    table.refresh_from_db()
    seen = table.version
    tables.leave_game(alice, table.pk)
    assert changed(client, table, seen)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    assert "called off before it started" in text(response)


def test_a_table_a_moderator_called_off_says_who_and_why(alice, bob, moderator):
    table = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=3))
    tables.join_game(bob, table.pk, token=table.join_token)
    moderation.abort_game(moderator, table.pk, "Spam table.")
    page = " ".join(text(client_for(bob).get(table.get_absolute_url())).split())
    assert "called off before it started</strong>: by a moderator. Why: Spam table." in page
