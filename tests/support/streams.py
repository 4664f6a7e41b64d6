"""What the stream tests send and look for: a session cookie, a stream path, an event of a
given version, a move made through the site, PostgreSQL's listening backends, a revocation."""

from __future__ import annotations

from django.db import connection

from games.live import events
from games.models import Game
from tests.support.games import client_for, greedy_choice, seat_to_act
from tests.support.pages import text
from tests.views.helpers import post_move


def stream_path(game, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/events/game/{game.pk}/" + (f"?{query}" if query else "")


def cookie(client) -> dict:
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}


def move_through_the_site(game: Game) -> Game:
    """The player to act makes the greedy move by POSTing it, as the page does."""
    game.refresh_from_db()
    seat = seat_to_act(game)
    response = post_move(client_for(seat.user), game, greedy_choice(game, seat), game.version)
    assert response.status_code in (200, 302), text(response)[:500]
    game.refresh_from_db()
    return game


def is_game_event(version):
    return lambda e: e.get("data", {}).get("version") == version


def listening_backends() -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND query LIKE %s AND pid <> pg_backend_pid()",
            [f"LISTEN {events.CHANNEL}%"],
        )
        return {row[0] for row in cursor.fetchall()}


PROMPTLY = 15  # seconds: far below the 600 s recheck, generous for a loaded machine


def is_revoked(event) -> bool:
    return event.get("event") == "revoked"
