"""The live-update check's fast path: a signed key per page, and what changes kept in the cache.

Every open game page asks every 2 s whether its game changed (`views.poll`). That check is the
most frequent request of the site, so it is answered without the session machinery and, where
the cache is shared by every process (Redis: `CACHE_URL`), without the database:

- **The poll key.** The page carries a key signed with SECRET_KEY (`issue`): the game, the
  viewer's user id (0 for a visitor) and the seat whose "watching" mark the check keeps fresh.
  It is issued only to whom the page was shown, so it proves what the session would: that this
  viewer may see the game's version and status (which hide nothing). It expires after
  `KEY_MAX_AGE`; a page older than that falls back to the session (the check still answers).
- **The live state** (`state`): a game's version, status and chat sequence, cached per game.
- **The "your turn" count** (`your_turn`): how many games wait for a user (the nav's badge).

Every commit that changes them updates them (`forget_game`: the state as committed, set at the
commit; `forget_turns`: the counts deleted at the commit), from Game.save and from the services'
updates that bypass it; a check that finds nothing reads the database and adds what it read
(`cache.add`: never over a fresher value). `GEARTABLE_LIVE_SECONDS` bounds how long a copy
lives, and so how long a missed update (or two commits' updates landing out of order) could
keep a page behind. Without a shared cache (the defaults of `make run`:
each process its own memory) nothing is cached: a worker's change would not reach the web
process's memory.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import connection, transaction

log = logging.getLogger(__name__)

KEY_SALT = "geartable.poll"
KEY_MAX_AGE = 12 * 3600  # seconds: a page left open longer checks through its session


def issue(game_id: int, user_id: int | None, watch_seat_id: int | None) -> str:
    """The poll key of a page shown to `user_id` (None: a visitor); `watch_seat_id`: the seat
    whose player this page is (their "watching" mark), else None."""
    return signing.dumps([game_id, user_id or 0, watch_seat_id or 0], salt=KEY_SALT, compress=False)


def read(key: str, game_id: int) -> tuple[int, int] | None:
    """(user id, seat id to mark watching) from a valid, unexpired key for this game, or None."""
    try:
        gid, user_id, seat_id = signing.loads(key, salt=KEY_SALT, max_age=KEY_MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if gid != game_id or not isinstance(user_id, int) or not isinstance(seat_id, int):
        return None
    return user_id, seat_id


def enabled() -> bool:
    return settings.GEARTABLE_LIVE_CACHE


def _state_key(game_id: int) -> str:
    return f"live:game:{game_id}"


def _turns_key(user_id: int) -> str:
    return f"live:turns:{user_id}"


def _watch_key(seat_id: int) -> str:
    return f"live:watch:{seat_id}"


# --- reading ------------------------------------------------------------------------------------

_STATE_SQL = "SELECT version, status, chat_seq FROM games_game WHERE id = %s"
_TURNS_SQL = """
    SELECT count(*) FROM games_seat s JOIN games_game g ON g.id = s.game_id
    WHERE s.user_id = %s AND s.to_act AND g.status = 'active'
"""


def state(
    game_id: int, user_id: int = 0, watch_seat_id: int = 0
) -> tuple[tuple[int, str, int] | None, int | None, bool]:
    """The game's (version, status, chat sequence), None if there is no such game; for a
    `user_id`, how many games in play wait for that user (else None); and whether the
    "watching" mark of `watch_seat_id` was written lately (`watching_due`). In the steady case,
    one cache round trip and no query."""
    keys = [_state_key(game_id), _turns_key(user_id), _watch_key(watch_seat_id)]
    found = cache.get_many(keys) if enabled() else {}
    game = found.get(keys[0])
    if game is None:
        with connection.cursor() as cursor:
            cursor.execute(_STATE_SQL, [game_id])
            game = cursor.fetchone()
        if game is not None and enabled():
            cache.add(keys[0], list(game), settings.GEARTABLE_LIVE_SECONDS)
    if game is None:
        return None, None, False
    turns = None
    if user_id:
        turns = found.get(keys[1])
        if turns is None:
            turns = _count_turns(user_id)
    return tuple(game), turns, keys[2] in found


def your_turn(user_id: int) -> int:
    """How many games in play wait for this user (Seat.to_act), by the (user, to_act) index."""
    if enabled():
        found = cache.get(_turns_key(user_id))
        if found is not None:
            return found
    return _count_turns(user_id)


def _count_turns(user_id: int) -> int:
    """The count from the database, kept in the cache for the next reader."""
    with connection.cursor() as cursor:
        cursor.execute(_TURNS_SQL, [user_id])
        count = cursor.fetchone()[0]
    if enabled():
        cache.add(_turns_key(user_id), count, settings.GEARTABLE_LIVE_SECONDS)
    return count


def watching_due(seat_id: int, every_seconds: int) -> bool:
    """True at most once per `every_seconds` per seat: when the check should write the seat's
    "watching" mark. Without a shared cache, always (the conditional UPDATE keeps it rare)."""
    if not enabled():
        return True
    return cache.add(_watch_key(seat_id), 1, every_seconds)


# --- forgetting, after the commit that changed it ------------------------------------------------


# The callbacks after a commit are `robust`: a cache that cannot be reached then is logged and
# never turns a committed move into an error page (the copies expire: GEARTABLE_LIVE_SECONDS).


def forget_game(game_id: int) -> None:
    """The game's version, status or chat changed (call it after the write, in its transaction):
    at the commit, the cache gets the state as committed. It is read now, after the write, so it
    is this transaction's own (the written row stays locked until the commit) and set, not
    deleted: a check that read the old row just before the commit cannot put it back after
    (its `cache.add` finds the key taken), which a delete would allow."""
    if not enabled() or game_id is None:
        return
    with connection.cursor() as cursor:
        cursor.execute(_STATE_SQL, [game_id])
        row = cursor.fetchone()
    key = _state_key(game_id)
    if row is None:
        transaction.on_commit(lambda: cache.delete(key), robust=True)
    else:
        value = list(row)
        transaction.on_commit(
            lambda: cache.set(key, value, settings.GEARTABLE_LIVE_SECONDS), robust=True
        )


LOBBY_KEY = "lobby:lists"  # the lobby's lists, the same for all (games.views._lobby_lists)


def forget_lobby() -> None:
    """A public table opened, filled, started or ended: the lobby's lists go now (a lobby drawn
    meanwhile from the old rows is short-lived: views.LOBBY_SECONDS) and again at the commit."""
    try:  # a change (a worker's resolution, say) never waits on, or fails with, the cache
        cache.delete(LOBBY_KEY)
    except Exception:  # the cache's client raises its own errors; the copy expires anyway
        log.warning("could not forget the lobby's lists now", exc_info=True)
    transaction.on_commit(lambda: cache.delete(LOBBY_KEY), robust=True)


def forget_turns(user_ids: Iterable[int | None]) -> None:
    """Whose turn it is changed in games of these users: their counts go once this commits."""
    if not enabled():
        return
    keys = [_turns_key(uid) for uid in set(user_ids) if uid]
    if keys:
        transaction.on_commit(lambda: cache.delete_many(keys), robust=True)
