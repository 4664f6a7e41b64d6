"""Who may read a game's changes: one answer for the live check (views/game.py's poll) and the
event stream (stream.py), so that the two can never disagree.

The page's signed key while its grant holds (games/live.py: no session, the state from the
cache); else the session: a seated player (or one a bot replaced) logged in with their current
password, or anyone for a game open to them (public, or by its join link). Anyone else: None,
for whom the game does not exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from accounts.models import User
from games import engines, live, sql
from games.models import Game, Seat, Status

# The live check's query when the page's key cannot answer (games/sql.py: one round trip).
_poll_row = sql.PollQuery(Game, Seat, User, open_status=Status.OPEN, active_status=Status.ACTIVE)


@dataclass(frozen=True)
class Reader:
    """Who reads the game, and the game as the check found it."""

    user_id: int  # 0: a visitor, or a session that is not (or no longer) logged in
    seat: int | None  # the reader's own seat, as the key or the session's row names it
    version: int
    status: str
    chat: int
    your_turn: int | None  # the reader's "Your turn · N" (None for a visitor by the session)
    by_key: bool  # by the page's key (the cache), not by the session (the database)
    watch_fresh: bool = False  # by key: the seat's "watching" mark was written lately
    watched: object = None  # by session: the seat's watched mark, as the row says
    password: str = ""  # by session, logged in: the user's password hash (for a fresh key)


def game_reader(request: HttpRequest, game_id: int, *, fresh: bool = False) -> Reader | None:
    """The reader if this request may see the game's changes (the key `k`, else the session
    and the join token `t`); None if it may not, or if there is no such game. `fresh`: the
    key's grant read from the database, not the cache (live.state)."""
    key = request.GET.get("k")
    grant = live.read(key, game_id) if key else None
    if grant is not None:
        try:
            found, your_turn, watch_fresh = live.state(game_id, *grant, fresh=fresh)
        except live.Revoked:  # its user left the seat, changed password, was deactivated
            pass
        else:
            if found is None:
                return None
            version, status, chat = found
            user_id, seat, _tag = grant
            return Reader(user_id, seat, version, status, chat, your_turn, True, watch_fresh)
    user_id = session_user_id(request)
    row = _poll_row(game_id, user_id, request.GET.get("t", "-"))
    if row is None:
        return None
    version, status, chat, open_to_all, seated, password, my_seat, watched, your_turn = row
    logged_in = bool(password) and session_is_valid(request, password)
    if not open_to_all and not (seated and logged_in):
        return None
    return Reader(
        user_id if logged_in else 0,
        my_seat,
        version,
        status,
        chat,
        your_turn if logged_in else None,
        False,
        watched=watched,
        password=password if logged_in else "",
    )


def session_user_id(request: HttpRequest) -> int:
    """The logged-in user's id from the session, without loading the user row."""
    try:
        return int(request.session.get(SESSION_KEY, 0))
    except (TypeError, ValueError):
        return 0


def session_is_valid(request: HttpRequest, password: str) -> bool:
    """Is this session's auth hash the one of the user's current password, as get_user() checks
    it: a session dropped elsewhere (password changed, e.g.) is dropped here too."""
    if request.session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    given = request.session.get(HASH_SESSION_KEY)
    if not given:
        return False
    user = User(pk=session_user_id(request), password=password)
    return constant_time_compare(given, user.get_session_auth_hash()) or any(
        constant_time_compare(given, fallback) for fallback in user.get_session_auth_fallback_hash()
    )


@dataclass(frozen=True)
class Seen:
    """What one reader may see of a started game and do in it: the engine's view for their
    seat (`me`; None for a spectator, or a seat of a table not started) and their legal actions
    (none unless it is an active game of theirs)."""

    me: str | None
    view: dict
    legal: Sequence[dict]  # engine.legal_actions: a list or a read-only sequence


def seen_by(game: Game, seat: Seat | None) -> Seen:
    """The one way a game's state reaches a reader: the game page (views/game.py) and the API
    (api.py) both draw from it, so they can never show different things."""
    eng = engines.engine(game.kind)
    me = seat.seat_id if seat and seat.position else None
    view = eng.view(game.state, me)
    legal = eng.legal_actions(game.state, me) if me and game.is_active else []
    return Seen(me=me, view=view, legal=legal)
