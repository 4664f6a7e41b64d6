"""Issue 14, point 8: a seat keeps one name everywhere — the game page, its log, the e-mails, my
games and the final standings. Bots are numbered 1, 2, 3 within a game; a bot that took a
player's seat over says whose ("Greedy bot (for fay)")."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from games.actions import deadlines, moves, tables
from games.engines.outofgears.common import robot_name
from games.models import SEAT_ORDER, BotKind, Game, Notification, Seat, Status, seat_names
from games.notifications import email
from tests.support.games import (
    advance,
    client_for,
    greedy_program,
    seat_to_act,
    start_geared,
    start_oog,
)
from tests.support.pages import text
from tests.support.users import make_user

pytestmark = pytest.mark.django_db

REPLACED = "Greedy bot (for fay)"


@pytest.fixture
def fay(django_user_model):
    return make_user(django_user_model, "fay")  # no display name: she is "fay" to the others


def test_the_seat_name_of_a_player_a_numbered_bot_and_a_bot_in_a_players_seat(alice, fay):
    assert Seat(user=alice).name == "Alice"
    assert Seat(bot=BotKind.GREEDY, bot_number=2, position=1).name == "Greedy bot 2"
    assert Seat(bot=BotKind.RANDOM, bot_number=1, position=3).name == "Random bot 1"
    assert Seat(bot=BotKind.GREEDY, replaced_user=fay, position=2).name == REPLACED
    assert Seat(bot=BotKind.GREEDY).name == "Greedy bot"  # its player's account is gone
    assert Seat().name == "Empty seat"


def test_bots_are_numbered_1_2_3_within_each_game_whatever_seat_they_get(alice, bob):
    for user in (alice, bob):  # a second game counts from 1 again
        game = start_geared([user], bots=("greedy", "random", "greedy"))
        names = seat_names(game.seats.select_related("user"))
        assert sorted(names.values()) == sorted(
            [user.name, "Greedy bot 1", "Random bot 2", "Greedy bot 3"]
        )
        page = text(client_for(user).get(game.get_absolute_url()))
        for name in ("Greedy bot 1", "Random bot 2", "Greedy bot 3"):
            assert name in page
        # The seat positions are shuffled at the start; the numbers are not positions.
        assert game.options["names"] == names


def play_to_the_end(game: Game) -> Game:
    """Greedy moves for the people, the bots' own moves (on-commit tasks do not run here)."""
    for _ in range(3000):
        game.refresh_from_db()
        if not game.is_active:
            break
        if seat_to_act(game).is_bot:
            moves.play_bots(game.pk)
        else:
            advance(game, 1)
    assert game.status == Status.FINISHED
    return game


def rendered_mail(user, game: Game, kind: str) -> str:
    note = Notification.objects.get(user=user, game=game, kind=kind)
    context, _ = email._context(note)
    return render_to_string(f"emails/{kind}.txt", context)


def test_geared_a_bot_in_fays_seat_has_one_name_on_the_page_log_mail_my_games_and_standings(
    alice, bob, fay
):
    game = start_geared([alice, bob, fay], bots=("greedy",), target=300)
    deadlines.resign(fay, game.pk)
    game = play_to_the_end(game)

    seats = list(game.seats.select_related("user", "replaced_user"))
    assert sorted(s.name for s in seats) == sorted(["Alice", "Bob", REPLACED, "Greedy bot 1"])

    client = client_for(alice)
    page = text(client.get(game.get_absolute_url()))
    log = text(client.get(reverse("game_log", args=[game.pk])))
    mine = text(client.get(reverse("my_games")))
    mail = rendered_mail(alice, game, Notification.Kind.GAME_OVER)
    standings = page[page.index('class="standings"') :]
    for where, shown in (("page", page), ("standings", standings)):
        assert REPLACED in shown, where
        assert "Greedy bot 1" in shown, where
    for seat in seats:  # the log names every seat that did something
        if seat.bot and any(e.get("seat") == seat.seat_id for e in game.state["events"]):
            assert f"{seat.name} " in log
    assert f"{REPLACED}: " in mail and "Greedy bot 1: " in mail  # the result lines
    assert REPLACED in mine and "Greedy bot 1" in mine  # "with Bob, Greedy bot (for fay), …"
    # Never the seat's position ("Greedy bot 3") nor the name frozen at the start ("fay").
    for shown in (page, log, mine, mail):
        assert not any(f"Greedy bot {n}" in shown for n in (2, 3, 4))
        assert ">fay<" not in shown and "fay played" not in shown


def test_outofgears_fays_robot_is_named_after_the_seat_on_the_page_log_and_mail(alice, bob, fay):
    game = start_oog([alice, bob, fay], bots=("greedy",))
    deadlines.resign(fay, game.pk)
    for seat in game.seats.select_related("user").filter(user__isnull=False):
        game.refresh_from_db()
        moves.submit_action(seat.user, game.pk, game.turn_version, greedy_program(game, seat))
    moves.play_bots(game.pk)
    game.refresh_from_db()
    assert moves.resolve_turn(game.pk, game.turn)
    game.refresh_from_db()
    fays = game.seats.get(replaced_user=fay)
    colour = robot_name(fays.robots[0])

    client = client_for(alice)
    page = text(client.get(game.get_absolute_url()))
    log = text(client.get(reverse("game_log", args=[game.pk])))
    mail = rendered_mail(alice, game, Notification.Kind.TURN_RESOLVED)
    assert REPLACED in page  # on fay's robot, and in the story
    assert "Greedy bot 1" in page
    for shown in (page, log, mail):
        # The story names a robot with its seat's name: never the name frozen at the start.
        assert "(fay)" not in shown
        for line in shown.splitlines():
            if f"{colour} (" in line:
                assert f"{colour} ({REPLACED})" in line


def test_a_games_seats_come_in_the_databases_seat_order_open_or_started(alice, bob, carol):
    """The seats of one game are sorted in Python (models.in_seat_order), not by an ORDER BY:
    the order is the one the database gives for SEAT_ORDER, seats without a position (a table
    still open) last and by id, in every read of one game."""
    open_table = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=4))
    for user in (carol, bob):
        tables.join_game(user, open_table.pk, token=open_table.join_token)
    started = start_geared([alice, bob, carol])
    Seat.objects.filter(game=started, position=1).update(position=None)  # a hole: NULLs last
    for game in (open_table, started):
        expected = list(
            Seat.objects.filter(game=game).order_by(*SEAT_ORDER).values_list("pk", flat=True)
        )
        assert [s.pk for s in Game.objects.with_table(game.pk).table] == expected
        assert [s.pk for s in Game.objects.get(pk=game.pk).table] == expected
        with transaction.atomic():
            locked = Game.objects.locked(game.pk, with_seats=True)
            assert [s.pk for s in locked.table] == expected
