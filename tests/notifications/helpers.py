"""Helpers for the notification tests: start games through the one write path, play turns the
way a greedy player would, read the Notification rows and the e-mails a server received."""

from __future__ import annotations

import random
from email.message import EmailMessage

from games import engines
from games.actions import moves
from games.engines.geared import engine as geared
from games.engines.geared.bots import greedy_bot
from games.engines.outofgears.bots import greedy_bot as oog_greedy_bot
from games.models import Game, Notification, Seat
from tests.support.games import seat_of, seat_to_act

Note = Notification.Kind


def end_turn_choice(game: Game, seat: Seat) -> dict:
    """A greedy action that ends the turn (no rearranging first)."""
    legal = [a for a in geared.legal_actions(game.state, seat.seat_id) if a["type"] != "rearrange"]
    view = geared.view(game.state, seat.seat_id)
    return greedy_bot(view, legal, random.Random(f"{game.pk}:{game.version}"))


def play_turn(game: Game) -> Seat:
    """Geared: the player to act plays one action that ends their turn. Returns their seat."""
    seat = seat_to_act(game)
    moves.submit_action(seat.user, game.pk, game.version, end_turn_choice(game, seat))
    game.refresh_from_db()
    return seat


def oog_program(game: Game, seat: Seat) -> dict:
    view = engines.engine("outofgears").view(game.state, seat.seat_id)
    legal = engines.engine("outofgears").legal_actions(game.state, seat.seat_id)
    return oog_greedy_bot(view, legal, random.Random(f"{game.pk}:{game.turn}:{seat.seat_id}"))


def submit_program(game: Game, user) -> None:
    game.refresh_from_db()
    seat = seat_of(game, user)
    moves.submit_action(user, game.pk, game.turn_version, oog_program(game, seat))


def notes(game: Game, kind: str | None = None, **filters):
    rows = Notification.objects.filter(game=game, **filters)
    return rows.filter(kind=kind) if kind else rows


def recipients(game: Game, kind: str, **filters) -> list[str]:
    return sorted(notes(game, kind, **filters).values_list("user__username", flat=True))


# --- reading a received e-mail -----------------------------------------------------------------


def text_part(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_part(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def unsubscribe_url(message: EmailMessage) -> str:
    header = str(message["List-Unsubscribe"])
    assert header.startswith("<") and header.endswith(">"), header
    return header[1:-1]
