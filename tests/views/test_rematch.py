"""The end of a game: the final standings on the game page, and the ways on — the replay, and a
rematch with the same players that each of them accepts with one click and that starts by
itself once the last one has."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.actions import moves, tables
from games.models import Game, Invitation, Kind, Status
from tests.support.games import advance, client_for, seat_to_act, start_geared, start_oog
from tests.support.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, carol):
    game = advance(start_geared([alice, bob, carol], target=300), 900)
    assert game.status == Status.FINISHED
    return game


def rematch(client, game):
    return client.post(reverse("game_rematch", args=[game.pk]))


def test_the_finished_page_shows_the_standings_in_order_with_the_winner(finished, alice):
    page = text(client_for(alice).get(finished.get_absolute_url()))
    standings = page[page.index("Final standings") : page.index('class="ways-on"')]
    result = finished.result
    names = finished.options["names"]
    order = [standings.index(f">{names[sid]}") for sid in result["ranking"]]
    assert order == sorted(order), "listed from first place to last"
    for sid in result["ranking"]:
        assert f"{result['scores'][sid]} points" in standings
    assert standings.count('class="winner') == len(result["winners"])
    assert reverse("game_replay", args=[finished.pk]) in page
    assert "Rematch with the same players" in page


def test_a_rematch_opens_the_same_table_and_invites_the_others(finished, alice, bob, carol):
    response = rematch(client_for(alice), finished)
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.status == Status.OPEN and new.kind == Kind.GEARED
    assert (new.seat_count, new.options["target"], new.turn_seconds) == (
        3,
        finished.options["target"],
        finished.turn_seconds,
    )
    assert new.rematch_of_id == finished.pk and "rematch_of" not in new.options and not new.public
    assert list(new.seats.values_list("user__username", flat=True)) == ["alice"]
    invited = set(Invitation.objects.filter(game=new).values_list("user__username", flat=True))
    assert invited == {"bob", "carol"}
    # Each invitation's e-mail is owed from the start: the sweep sends it if its task is lost.
    assert not Invitation.objects.filter(game=new, next_attempt__isnull=True).exists()

    # The others see the offer on the finished game's page: one click each.
    page = text(client_for(bob).get(finished.get_absolute_url()))
    assert ">Alice</a> offers a rematch" in page and "Accept the rematch" in page  # issue 27.1
    assert rematch(client_for(bob), finished).url == new.get_absolute_url()
    new.refresh_from_db()
    assert new.status == Status.OPEN, "waiting for carol"
    assert "Go to the rematch" in text(client_for(bob).get(finished.get_absolute_url()))

    rematch(client_for(carol), finished)
    new.refresh_from_db()
    assert new.status == Status.ACTIVE, "the last acceptance starts it"
    assert {s.user.username for s in new.seats.select_related("user")} == {"alice", "bob", "carol"}


def test_the_last_invitee_joining_by_the_button_starts_the_rematch(finished, alice, bob, carol):
    """Issue 34.10: the end screen's Rematch started the table at the last acceptance, the
    table's own Join button did not (the table then waited for a Start nobody expected to
    press). One path takes a seat, and it starts a full rematch table."""
    rematch(client_for(alice), finished)
    new = Game.objects.exclude(pk=finished.pk).get()
    rematch(client_for(bob), finished)
    join = reverse("game_join", args=[new.pk])
    assert join in text(client_for(carol).get(new.get_absolute_url()))  # the table's button
    response = client_for(carol).post(join)
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    new.refresh_from_db()
    assert new.status == Status.ACTIVE, "the last seat taken starts it"
    assert {s.user.username for s in new.seats.select_related("user")} == {"alice", "bob", "carol"}


def test_two_rematch_clicks_make_one_rematch(finished, alice, bob):
    first = rematch(client_for(alice), finished).url
    again = rematch(client_for(alice), finished).url
    assert first == again
    assert Game.objects.filter(rematch_of=finished.pk).count() == 1


def play_against_bots(game: Game) -> Game:
    """To the end: alice's greedy moves, and the bots' (their on-commit tasks do not run here)."""
    for _ in range(900):
        game.refresh_from_db()
        if not game.is_active:
            break
        if seat_to_act(game).is_bot:
            moves.play_bots(game.pk)
        else:
            advance(game, 1)
    return game


def test_bots_keep_their_seats_in_a_rematch(alice):
    game = play_against_bots(start_geared([alice], target=300, bots=("greedy",)))
    assert game.status == Status.FINISHED
    new = tables.rematch(alice, game.pk)
    assert new.status == Status.ACTIVE, "nobody to wait for: it starts at once"
    assert sorted(s.bot for s in new.seats.all()) == ["", "greedy"]


def test_an_out_of_gears_rematch_keeps_each_players_robot(alice, bob):
    game = start_oog([alice, bob])
    robots = {s.user_id: s.robots for s in game.seats.all()}
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED, result={"scores": {}})
    new = tables.rematch(alice, game.pk)
    tables.rematch(bob, game.pk)
    new.refresh_from_db()
    assert new.status == Status.ACTIVE
    assert {s.user_id: s.robots for s in new.seats.all()} == robots


def test_no_rematch_of_a_game_in_play(alice, bob):
    game = start_geared([alice, bob])
    response = rematch(client_for(alice), game)
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert Game.objects.count() == 1


def test_a_stranger_cannot_ask_for_or_join_a_rematch(finished, alice, django_user_model):
    stranger = django_user_model.objects.create_user("dan", "dan@example.com", "pw")
    assert rematch(client_for(stranger), finished).status_code == 404
    rematch(client_for(alice), finished)
    assert rematch(client_for(stranger), finished).status_code == 404
    new = Game.objects.get(rematch_of=finished.pk)
    assert not new.seats.filter(user=stranger).exists()


def test_a_rematch_needs_a_post(finished, alice):
    assert client_for(alice).get(reverse("game_rematch", args=[finished.pk])).status_code == 405


# --- issue 22, point 6: a rematch offered and called off again and again ----------------------


def offer_and_call_off(user, game: Game) -> Game:
    new = tables.rematch(user, game.pk)
    tables.leave_game(user, new.pk)  # the host leaving closes the table
    return new


def test_a_rematch_offered_and_called_off_again_and_again_emails_each_player_once(
    finished, alice, bob, carol, mailoutbox, django_capture_on_commit_callbacks
):
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):  # the offer's e-mails go now
            new = tables.rematch(alice, finished.pk)
        tables.leave_game(alice, new.pk)  # the host leaving closes the table
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.com", "carol@example.com"]
    assert Invitation.objects.filter(inviter=alice).count() == 10, "each offer invites"


def test_rematch_offers_are_limited_per_player_and_day(finished, alice, bob, settings):
    settings.GEARTABLE_REMATCHES_PER_DAY = 2
    for _ in range(2):
        offer_and_call_off(alice, finished)
    client = client_for(alice)
    response = rematch(client, finished)
    assert response.status_code == 302 and response.url == finished.get_absolute_url()
    assert "You have offered 2 rematches in the last 24 hours, the most allowed." in text(
        client.get(response.url)
    )
    assert Game.objects.exclude(pk=finished.pk).count() == 2
    new = tables.rematch(bob, finished.pk)  # the others may still offer one
    assert new.status == Status.OPEN
