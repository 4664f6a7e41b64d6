"""Who may read a game, decided once (issue 34.8), and what each reader sees of it.

**The rule** is `may_read`: anyone for a public game; whoever is tied to the game (a seat, or
the seat a bot took from them; an invitation to its table; its record's import); whoever holds
the table's link, while it waits for players and, once it has started, if the table lets its
link be used to watch. Everybody else: the game does not exist for them (a 404, the same as
for an id that was never used: issue 34.7). A moderator reads a game in the admin, not here.

`may_read` takes the facts, not where they came from, and every door asks it:

- a game read in full (the pages, the API, the write path): `may_read_game` (`GameTies`: the
  facts from the game's seats and invitations, read only as far as they are needed);
- the live check and the event stream (`game_reader`), by session: `sql.PollQuery` reads the
  same facts in its one round trip, and `may_read` decides;
- by the page's signed poll key (games/live/cache.py): the key carries the asker's ties as they were
  when it was issued (`poll_key`), the cache the game's public/status/link facts as they are
  now, and `may_read` decides again at each check, so a key stops answering once its right is
  gone (a link that no longer opens the game, a seat left).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from accounts.models import User
from games import engines, sql
from games.live import cache as live
from games.models import Game, Invitation, Seat, Status

# The live check's query when the page's key cannot answer (games/sql.py: one round trip).
_poll_row = sql.PollQuery(Game, Seat, User, Invitation, active_status=Status.ACTIVE)


# --- the rule ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ties:
    """What ties an asker to a game, each a reason to read it (see `may_read`)."""

    seated: bool = False  # their seat, or the one a bot took from them
    invited: bool = False  # an invitation to the table names them
    importer: bool = False  # they imported the game's record
    link: bool = False  # they hold the table's link (its join token)

    # The ties as a poll key carries them (games/live/cache.py): one bit each.
    BITS = ("seated", "invited", "importer", "link")

    def bits(self) -> int:
        return sum(1 << i for i, name in enumerate(self.BITS) if getattr(self, name))

    @classmethod
    def from_bits(cls, bits: int) -> Ties:
        return cls(**{name: bool(bits >> i & 1) for i, name in enumerate(cls.BITS)})


def may_read(public: bool, status: str, watchable_by_link: bool, ties) -> bool:
    """THE rule of who may read a game (its page, fragment, log, chat, replay, record, live
    check, stream, API): the game's facts and the asker's `ties` (a `Ties`, or `GameTies`,
    whose facts are read only when asked, in this order)."""
    return bool(
        public
        or ties.seated
        or ties.importer
        or (ties.link and (status == Status.OPEN or watchable_by_link))
        or ties.invited
    )


class GameTies:
    """A user's ties to a game read in full (`game.table` loaded), each read when first asked:
    the invitations only if nothing else decided."""

    def __init__(self, game: Game, user: User | None, token: str | None) -> None:
        self.game = game
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        self.token = token

    @cached_property
    def seated(self) -> bool:
        uid = self.user_id
        return uid is not None and any(
            uid in (s.user_id, s.replaced_user_id) for s in self.game.table
        )

    @cached_property
    def importer(self) -> bool:
        return (
            self.user_id is not None and self.game.imported and self.game.creator_id == self.user_id
        )

    @cached_property
    def link(self) -> bool:
        return bool(self.token) and _token_matches(self.token, self.game.join_token)

    @cached_property
    def invited(self) -> bool:
        return (
            self.user_id is not None and self.game.invitations.filter(user_id=self.user_id).exists()
        )

    def frozen(self) -> Ties:
        """The ties a poll key carries: those read without a query, and the invitation only
        when they do not let the asker read (a key that loses its ties falls back to the
        session, which reads them all again)."""
        cheap = Ties(seated=self.seated, importer=self.importer, link=self.link)
        game = self.game
        if may_read(game.public, game.status, game.watchable_by_link, cheap):
            return cheap
        return replace(cheap, invited=self.invited)


def may_read_game(game: Game, user: User | None, token: str | None = None) -> bool:
    """May this user (None or anonymous: a visitor), with the table's link `token` if any,
    read this game? `may_read` on the game as read (its seats loaded: `game.table`)."""
    return may_read(game.public, game.status, game.watchable_by_link, GameTies(game, user, token))


def _token_matches(given: str, expected: str) -> bool:
    return constant_time_compare(given, expected)  # as bytes: any text compares


def poll_key(game: Game, user: User | None, token: str | None, seat_id: int | None) -> str:
    """The signed poll key of a page of this game shown to `user` (games/live/cache.py): it carries
    their ties to the game as they are now, for `may_read` to weigh at each check against the
    game as it is then. `seat_id`: their own seat (its "watching" mark; its owner is checked
    at each use)."""
    ties = GameTies(game, user, token).frozen()
    return live.issue(game.pk, user, seat_id, ties.bits())


# --- the live check and the stream --------------------------------------------------------------


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
    ties: Ties = Ties()  # by session: the reader's ties, for the fresh key the poll hands out


def game_reader(request: HttpRequest, game_id: int, *, fresh: bool = False) -> Reader | None:
    """The reader if this request may read the game's changes (`may_read`: by the page's key
    `k` while it holds, else by the session and the join token `t`); None if it may not, or if
    there is no such game. `fresh`: the key's grant and the game's facts read from the
    database, not the cache (live.state)."""
    key = request.GET.get("k")
    grant = live.read(key, game_id) if key else None
    if grant is not None:
        user_id, seat, tag, bits = grant
        try:
            found, your_turn, watch_fresh = live.state(game_id, user_id, seat, tag, fresh=fresh)
        except live.Revoked:  # its user left the seat, changed password, was deactivated
            found = None
        if found is not None:
            version, status, chat, public, watchable_by_link = found
            if may_read(public, status, watchable_by_link, Ties.from_bits(bits)):
                return Reader(user_id, seat, version, status, chat, your_turn, True, watch_fresh)
        # No longer (or no such game): the session decides, as for a page without a key.
    user_id = session_user_id(request)
    row = _poll_row(game_id, user_id, request.GET.get("t", ""))
    if row is None:
        return None
    version, status, chat, public, watchable_by_link, link = row[:6]
    seated, invited, importer, password, my_seat, watched, your_turn = row[6:]
    logged_in = bool(password) and session_is_valid(request, password)
    ties = Ties(
        seated=bool(seated and logged_in),
        invited=bool(invited and logged_in),
        importer=bool(importer and logged_in),
        link=bool(link),
    )
    if not may_read(public, status, watchable_by_link, ties):
        return None
    return Reader(
        user_id if logged_in else 0,
        my_seat if logged_in else None,
        version,
        status,
        chat,
        your_turn if logged_in else None,
        False,
        watched=watched,
        password=password if logged_in else "",
        ties=ties,
    )


def session_user_id(request: HttpRequest) -> int:
    """The logged-in user's id from the session, without loading the user row."""
    try:
        return int(request.session.get(SESSION_KEY, 0))
    except (TypeError, ValueError):
        return 0


def session_is_valid(request: HttpRequest, password: str) -> bool:
    """Is this session's auth hash the one of the user's current password (or of a fallback
    secret), as get_user() checks it: a session dropped elsewhere (password changed, e.g.) is
    dropped here too. The one check of a session read without loading its user: the live
    check, the stream, and a game page's players (`session_user_among`)."""
    if request.session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    given = request.session.get(HASH_SESSION_KEY)
    if not given:
        return False
    user = User(pk=session_user_id(request), password=password)
    return constant_time_compare(given, user.get_session_auth_hash()) or any(
        constant_time_compare(given, fallback) for fallback in user.get_session_auth_fallback_hash()
    )


def session_user_among(request: HttpRequest, users) -> User | None:
    """The session's user if it is one of `users` (rows already read, e.g. a game's players),
    after django.contrib.auth.get_user's own checks on that row: the session's backend loads
    users by id (ModelBackend.get_user), the user is active, the session's hash is the one of
    their password (`session_is_valid`). None in any other case (the caller lets request.user
    load as it always does)."""
    user_id = session_user_id(request)
    backend = request.session.get(BACKEND_SESSION_KEY)
    if not user_id or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    if type(load_backend(backend)).get_user is not ModelBackend.get_user:
        return None
    for user in users:
        if user is not None and user.pk == user_id:
            if user.is_active and session_is_valid(request, user.password):
                return user
            return None
    return None


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
