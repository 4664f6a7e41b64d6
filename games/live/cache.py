"""The live-update check's fast path: a signed key per page, and what changes kept in the cache.

Every open game page asks every 2 s whether its game changed (`poll`, games/views/game.py). That
check is the most frequent request of the site, so it is answered without the session machinery
and, where the cache is shared by every process (Redis: `CACHE_URL`), without the database:

- **The poll key.** The page carries a key signed with SECRET_KEY (`issue`): the game, the
  viewer's user id (0 for a visitor), the seat whose "watching" mark the check keeps fresh, and
  a short tag of the user's session auth hash (`_auth_tag`: it changes with the password),
  and the viewer's ties to the game (games/reads/access.py `Ties`: seated, invited, importer, holds
  the link). It is issued only to whom the page was shown, so it proves what the session
  would: that this viewer may see the game's version and status (which hide nothing). It
  answers only while it is younger than `KEY_MAX_AGE` (minutes), its user is active with the
  same password, its seat is still that user's (`grant`: a player who left the table, was
  replaced by a bot, deactivated or changed password gets nothing from it), and its ties
  still let it read the game as the cache has it now (`access.may_read`: a link that no
  longer opens a game that has started stops answering at the next check). Any other key is
  ignored and the session decides, as the rest of the site would; when the session may see
  the game, that answer carries a fresh key (`X-Poll-Key`) that the page keeps, so a page
  open for days keeps working and is back on the fast path at its next check.
- **The grant** (`grant`): each user's current auth tag ("" once inactive) and each seat's
  player, cached like the rest and set at the commit that changes them (the User and Seat
  signals, games/apps.py), so the steady check still makes one cache round trip and no query.
- **The live state** (`state`): a game's version, status and chat sequence, and whether it is
  public and watchable by its link (`STATE_FIELDS`), cached per game.
- **The "your turn" count** (`your_turn`): how many games wait for a user (the nav's badge).

Every commit that changes them updates them (`forget_game`: the state as committed, set at the
commit; `forget_turns`: the counts deleted at the commit; `turns_moved`: moved by what the
commit changed), from every saved Game (`game_saved`,
a signal receiver: the models know nothing of the cache) and from the services' updates that
bypass it; a check that finds nothing reads the database and adds what it read
(`cache.add`: never over a fresher value). `GEARTABLE_LIVE_SECONDS` bounds how long a copy
lives, and so how long a missed update (or two commits' updates landing out of order) could
keep a page behind. Without a shared cache (the defaults of `make run`:
each process its own memory) nothing is cached: a worker's change would not reach the web
process's memory.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from accounts.models import User
from games.live import events
from games.models import Game, Seat

log = logging.getLogger(__name__)

KEY_SALT = "geartable.poll"
# Seconds a key answers: a page open longer checks once through its session, which hands it a
# fresh key (the poll, games/views/game.py). Short, so that what the grant and the ties cannot
# see is honoured within minutes (what a leaked key can do: docs/live.md).
KEY_MAX_AGE = 10 * 60
FRESH_KEY_HEADER = "X-Poll-Key"


def _auth_tag(session_auth_hash: str) -> str:
    """A short tag of the user's session auth hash (an HMAC of the password hash): the key is
    readable, so it carries a digest of that, never the hash a session holds."""
    return salted_hmac(KEY_SALT, session_auth_hash, algorithm="sha256").hexdigest()[:16]


def user_tag(user) -> str:
    """The auth tag a key of this user carries ("" for a visitor or an inactive account)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return ""
    return _auth_tag(user.get_session_auth_hash())


def issue(game_id: int, user, watch_seat_id: int | None, ties: int = 0) -> str:
    """The poll key of a page shown to `user` (None or anonymous: a visitor); `watch_seat_id`:
    the user's own seat, whose "watching" mark the check keeps fresh, else None; `ties`: what
    tied them to the game then (games/reads/access.py, `Ties.bits`), weighed again at each check."""
    user_id = user.pk if user is not None and user.is_authenticated else 0
    payload = [game_id, user_id or 0, (user_id and watch_seat_id) or 0, user_tag(user), ties]
    return signing.dumps(payload, salt=KEY_SALT, compress=False)


def read(key: str, game_id: int) -> tuple[int, int, str, int] | None:
    """(user id, seat id to mark watching, auth tag, ties) from a well-signed key for this game
    that is younger than KEY_MAX_AGE, or None. Whether it still answers is for `state` (the
    grant) and access.may_read (the ties, against the game as it is) to say."""
    try:
        gid, user_id, seat_id, tag, ties = signing.loads(key, salt=KEY_SALT, max_age=KEY_MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if gid != game_id or not all(isinstance(v, int) for v in (user_id, seat_id, ties)):
        return None
    if not isinstance(tag, str) or bool(tag) != bool(user_id):
        return None
    return user_id, seat_id, tag, ties


def enabled() -> bool:
    return settings.GEARTABLE_LIVE_CACHE


def _state_key(game_id: int) -> str:
    return f"live:state:{game_id}"


def _turns_key(user_id: int) -> str:
    return f"live:turns:{user_id}"


def _watch_key(seat_id: int) -> str:
    return f"live:watch:{seat_id}"


def _streamed_key(game_id: int, user_id: int) -> str:
    return f"live:streamed:{game_id}:{user_id}"


def _auth_key(user_id: int) -> str:
    return f"live:auth:{user_id}"


def _seat_key(seat_id: int) -> str:
    return f"live:seat:{seat_id}"


# --- reading ------------------------------------------------------------------------------------


# What the live check keeps of a game: its (version, status, chat sequence), and the facts of
# who may read it that can change while a page is open (access.may_read: public, its link).
STATE_FIELDS = ("version", "status", "chat_seq", "public", "watchable_by_link")


def _read_state(game_id: int) -> tuple | None:
    """The game's STATE_FIELDS from the database, or None."""
    return Game.objects.filter(pk=game_id).values_list(*STATE_FIELDS).first()


class Revoked(Exception):
    """The key's user is no longer active with that password, or its seat no longer theirs."""


def state(
    game_id: int, user_id: int = 0, watch_seat_id: int = 0, tag: str = "", *, fresh: bool = False
) -> tuple[tuple | None, int | None, bool]:
    """The game's STATE_FIELDS, None if there is no such game; for a
    `user_id`, how many games in play wait for that user (else None); and whether the
    "watching" mark of `watch_seat_id` was written lately (`watching_due`). Raises Revoked if
    the key's grant (`tag`, the seat) no longer holds. In the steady case, one cache round trip
    and no query; `fresh`: the grant and the game's state read from the database (a stream
    told that they changed, before the commit's own cache update may have landed)."""
    keys = [
        _state_key(game_id),
        _turns_key(user_id),
        _watch_key(watch_seat_id),
        _auth_key(user_id),
        _seat_key(watch_seat_id),
    ]
    found = cache.get_many(keys) if enabled() else {}
    if user_id:
        cached_tag, cached_owner = (
            (None, None) if fresh else (found.get(keys[3]), found.get(keys[4]))
        )
        _check_grant(game_id, user_id, watch_seat_id, tag, cached_tag, cached_owner)
    game = None if fresh else found.get(keys[0])
    if game is None:
        game = _read_state(game_id)
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


def _check_grant(
    game_id: int, user_id: int, seat_id: int, tag: str, cached_tag, cached_owner
) -> None:
    """Raise Revoked unless `user_id` is still active with the password the key was issued
    under and, for a seat, still sits in it. What the cache lacks is read in one query and
    kept (`add`) for the next check."""
    if cached_tag is None or (seat_id and cached_owner is None):
        password = (
            User.objects.filter(pk=user_id, is_active=True).values_list("password", flat=True)
        ).first()
        owner = (
            Seat.objects.filter(pk=seat_id, game_id=game_id)
            .values_list("user_id", flat=True)
            .first()
            if seat_id
            else None
        )
        if cached_tag is None:
            cached_tag = (
                _auth_tag(User(pk=user_id, password=password).get_session_auth_hash())
                if password is not None
                else ""
            )
            if enabled():
                cache.add(_auth_key(user_id), cached_tag, settings.GEARTABLE_LIVE_SECONDS)
        if seat_id and cached_owner is None:
            cached_owner = owner or 0
            if enabled():
                cache.add(_seat_key(seat_id), cached_owner, settings.GEARTABLE_LIVE_SECONDS)
    if not cached_tag or not constant_time_compare(cached_tag, tag):
        raise Revoked
    if seat_id and cached_owner != user_id:
        raise Revoked


def committed_version(game_id: int) -> int | None:
    """The game's version as last committed (a worker's step may have followed a move's
    commit): from the cache, which each commit sets (`forget_game`), else the database."""
    found = cache.get(_state_key(game_id)) if enabled() else None
    if found is None:
        found = _read_state(game_id)
    return None if found is None else found[0]


def your_turn(user_id: int) -> int:
    """How many games in play wait for this user (Seat.to_act), by the (user, to_act) index."""
    if enabled():
        found = cache.get(_turns_key(user_id))
        if found is not None:
            return max(found, 0)
    return _count_turns(user_id)


def _count_turns(user_id: int) -> int:
    """The count from the database, kept in the cache for the next reader."""
    count = Seat.objects.filter(user_id=user_id, to_act=True, game__status="active").count()
    if enabled():
        cache.add(_turns_key(user_id), count, settings.GEARTABLE_LIVE_SECONDS)
    return count


def watching_due(seat_id: int, every_seconds: int) -> bool:
    """True at most once per `every_seconds` per seat: when the check should write the seat's
    "watching" mark. Without a shared cache, always (the conditional UPDATE keeps it rare)."""
    if not enabled():
        return True
    return cache.add(_watch_key(seat_id), 1, every_seconds)


def mark_watching(marks: Iterable[tuple[int, int, int]], seconds: int) -> None:
    """The players of these open streams' game pages are watching them: (game id, user id,
    seat id) each. With a shared cache, one write of all the marks (lasting `seconds`, no
    database); without one (a worker would not see this process's memory), one UPDATE of
    their seats' `watched`, the poll's own mark. Called by the stream process every
    `seconds`/2 (games/live/stream.py); notifications.is_watching reads both."""
    marks = list(marks)
    if not marks:
        return
    if enabled():
        cache.set_many({_streamed_key(game, user): 1 for game, user, _seat in marks}, seconds)
        return
    now = timezone.now()
    Seat.objects.filter(pk__in=[seat for _g, _u, seat in marks]).update(watched=now)


def streamed(game_id: int, user_id: int) -> bool:
    """Has an open stream of this player's game page marked them watching lately (the cache's
    mark, `mark_watching`)? Without a shared cache the mark is the seat's row instead."""
    return enabled() and cache.get(_streamed_key(game_id, user_id)) is not None


# --- forgetting, after the commit that changed it ------------------------------------------------


# The callbacks after a commit are `robust`: a cache that cannot be reached then is logged and
# never turns a committed move into an error page (the copies expire: GEARTABLE_LIVE_SECONDS).


def forget_game(game_id: int, row: tuple | None = None, due=None) -> None:
    """The game's version, status or chat changed (call it after the write, in its transaction):
    at the commit, the cache gets the state as committed. It is read now, after the write, so it
    is this transaction's own (the written row stays locked until the commit) and set, not
    deleted: a check that read the old row just before the commit cannot put it back after
    (its `cache.add` finds the key taken), which a delete would allow. `row`: the STATE_FIELDS
    as written, when the caller holds the game's lock and has them all (`game_saved`), and `due`
    its `due_since` as written: not read again. The open pages' streams hear of it at the same
    commit (games/live/events.py)."""
    events.game_changed(game_id, row and (row[0], row[2], due))
    if not enabled() or game_id is None:
        return
    if row is None:
        row = _read_state(game_id)
    key = _state_key(game_id)
    if row is None:
        transaction.on_commit(lambda: cache.delete(key), robust=True)
    else:
        value = list(row)
        transaction.on_commit(
            lambda: cache.set(key, value, settings.GEARTABLE_LIVE_SECONDS), robust=True
        )


LOBBY_KEY = "lobby:lists"  # the lobby's lists, the same for all (games.views.lobby._lobby_lists)


def lobby_key(language: str) -> str:
    """The lobby's lists as drawn in one language: the same for everyone who reads it."""
    return f"{LOBBY_KEY}:{language}"


def _lobby_keys() -> list[str]:
    return [lobby_key(code) for code, _name in settings.LANGUAGES]


def forget_lobby() -> None:
    """A public table opened, filled, started or ended: the lobby's lists go now (a lobby drawn
    meanwhile from the old rows is short-lived: views.lobby.LOBBY_SECONDS) and again at the
    commit."""
    events.lobby_changed()
    try:  # a change (a worker's resolution, say) never waits on, or fails with, the cache
        cache.delete_many(_lobby_keys())
    except Exception:  # the cache's client raises its own errors; the copy expires anyway
        log.warning("could not forget the lobby's lists now", exc_info=True)
    transaction.on_commit(lambda: cache.delete_many(_lobby_keys()), robust=True)


def forget_turns(user_ids: Iterable[int | None]) -> None:
    """Whose turn it is changed in games of these users, or their games did (a table joined or
    left, a game aborted): their counts go once this commits, and their pages' streams hear of
    it then (games/live/events.py; My games redraws its lists)."""
    user_ids = set(user_ids)
    events.turns_changed(user_ids)
    if not enabled():
        return
    keys = [_turns_key(uid) for uid in user_ids if uid]
    if keys:
        transaction.on_commit(lambda: cache.delete_many(keys), robust=True)


def turns_moved(deltas: dict[int, int], user_ids: Iterable[int | None]) -> None:
    """Whose turn it is changed in one game, by the write path that holds its lock and knows
    each seat's `to_act` before and after: the count of each user in `deltas` moves by it at
    the commit (where it is cached: else the next reader counts), so that the mover's answer
    reads its nav's count from the cache, not a query (issue 36.1); the others' counts did not
    change. Every user of `user_ids` (the game's players) hears of it, as in `forget_turns`.
    A count that a reader added from the rows just before the commit is right after the move;
    one added between the commit and this update is off by the move until it expires, as one
    added after a delete is (GEARTABLE_LIVE_SECONDS)."""
    events.turns_changed(user_ids)
    if not enabled():
        return
    moves = {_turns_key(uid): delta for uid, delta in deltas.items() if uid and delta}
    if moves:
        transaction.on_commit(lambda: _move_counts(moves), robust=True)


def _move_counts(moves: dict[str, int]) -> None:
    for key, delta in moves.items():
        with contextlib.suppress(ValueError):  # not cached (or expired): the next reader counts
            cache.incr(key, delta)


def forget_user(user) -> None:
    """A user was saved (a password, `is_active`) or deleted: at the commit, the cache gets
    their tag as saved, so their old keys stop answering at the next check."""
    if not enabled() or user.pk is None:
        return
    key, tag = _auth_key(user.pk), user_tag(user)
    transaction.on_commit(lambda: cache.set(key, tag, settings.GEARTABLE_LIVE_SECONDS), robust=True)


def forget_seat(seat_id: int, user_id: int | None) -> None:
    """A seat changed hands (a bot took it) or went (its player left the table): at the
    commit, the cache gets its player as saved (0: none)."""
    if not enabled() or seat_id is None:
        return
    key, owner = _seat_key(seat_id), user_id or 0
    transaction.on_commit(
        lambda: cache.set(key, owner, settings.GEARTABLE_LIVE_SECONDS), robust=True
    )


# The signal receivers (connected in games/apps.py): every save of a game, a user or a seat goes
# through them, so no write path has to remember.


# What the live-update check reads of a game (STATE_FIELDS): a save of any of them forgets it.
LIVE_FIELDS = frozenset({"version", "status", "chat_seq", "public", "watchable_by_link"})


def game_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """A game was saved: the live check's cached state goes at commit if it changed what the
    check reads, and the lobby's lists if a public table opened, started or ended."""
    if update_fields is None or LIVE_FIELDS.intersection(update_fields):
        # Read under the game's lock, still held: the row as saved is known, not read again.
        row, due = None, None
        if instance.lock_held and not instance.get_deferred_fields():
            row = tuple(getattr(instance, f) for f in STATE_FIELDS)
            due = instance.due_since  # the step the server owes it: the streams wait for it
            if any(hasattr(value, "resolve_expression") for value in (*row, due)):  # an F() saved
                row = None
        forget_game(instance.pk, row, due)
    status = instance.__dict__.get("status")  # never a query for a deferred field
    if instance.public and status != getattr(instance, "_saved_status", None):
        forget_lobby()
    instance._saved_status = status  # Game.from_db sets it as read


def game_shown(sender, game, **kwargs) -> None:
    """Game.shown_changed: what the game's page shows changed without a move; its players'
    My games rows change with it."""
    forget_turns(game.seats.values_list("user_id", flat=True))


# The fields of a user whose change may end their right to read: their open streams hear it.
_ACCESS_FIELDS = {"password", "is_active"}


def user_saved(sender, instance, update_fields=None, **kwargs) -> None:
    forget_user(instance)
    if not kwargs.get("created") and (update_fields is None or _ACCESS_FIELDS & set(update_fields)):
        events.access_changed([instance.pk])


def user_deleted(sender, instance, **kwargs) -> None:
    events.access_changed([instance.pk])
    if enabled() and instance.pk is not None:
        key = _auth_key(instance.pk)
        transaction.on_commit(
            lambda: cache.set(key, "", settings.GEARTABLE_LIVE_SECONDS), robust=True
        )


def token_changed(sender, instance, **kwargs) -> None:
    """An API token revoked (deleted) or edited (its expiry, in the admin): the streams it holds
    (games/api/streams.py) check it again at once, and end if it no longer holds."""
    if not kwargs.get("created"):
        events.access_changed([instance.user_id])


def seat_saved(sender, instance, update_fields=None, **kwargs) -> None:
    forget_seat(instance.pk, instance.user_id)
    if not kwargs.get("created") and (update_fields is None or "user" in update_fields):
        events.access_changed(game_id=instance.game_id)


def seat_deleted(sender, instance, **kwargs) -> None:
    forget_seat(instance.pk, None)
    events.access_changed(game_id=instance.game_id)
