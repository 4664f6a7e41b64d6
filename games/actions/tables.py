"""The one write path: every change to a game goes through here.

Each function runs in one transaction with the game row locked (`Game.objects.locked`), checks the
client's version where there is one, calls the engine, appends to the move log, saves with
`update_fields`, and queues side effects (Celery tasks, e-mails) with `transaction.on_commit`.
"""

from __future__ import annotations

import functools
import logging
import random
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Case, F, Q, When
from django.utils import timezone

from accounts.models import BOT_BY_HAND, EmailSuppression, User
from games import effects, engines, events, live, notifications, outbox, vacation, webpush
from games.errors import Conflict, Forbidden, GameError, NotFound
from games.interface import IllegalMove
from games.models import TURN_TIMES, BotKind, Game, Invitation, Move, Seat, Status, seat_names
from games.pages import page
from games.reads import access, invitations, ratings

log = logging.getLogger(__name__)

# The seat counts of each game with its default options (the lobby's form and records read it).
LIMITS = {kind: eng.seat_range({}) for kind, eng in engines.ENGINES.items()}

__all__ = ["Conflict", "Forbidden", "GameError", "NewGame", "NotFound"]  # and the functions


# --- reading -----------------------------------------------------------------------------------


def locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """The game row, locked until the transaction ends (`Game.objects.locked`); NotFound if
    there is none. Call inside transaction.atomic(). `with_seats`: its seats and players
    loaded along (`game.table`), read once the lock is held."""
    game = Game.objects.locked(game_id, with_seats=with_seats)
    if game is None:
        raise NotFound("There is no such game.")
    return game


def seat_of(game: Game, user: User | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.table if s.user_id == user.pk), None)


def former_seat_of(game: Game, user: User | None) -> Seat | None:
    """The seat this user played until a bot took it (they resigned, or missed too many
    deadlines): it gives read access to the game (page, log, chat), never a move."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.table if s.replaced_user_id == user.pk), None)


def check_can_play(user: User) -> None:
    """May this user act at a table now (move, chat, open, join, leave, invite, start, resign,
    a rematch, a report)? Not a suspended player; not a bot account, but through the API's door
    with a `bot` token (issue 28.4: `User.plays_by_bot_token`, set by accounts/tokens.py on the
    token's user and never on a page's). Called by `acting` only."""
    reason = getattr(user, "suspension_message", None)
    if reason:
        raise Forbidden(reason)
    if getattr(user, "is_bot", False) and not user.plays_by_bot_token:
        raise Forbidden(BOT_BY_HAND)


def acting(action):
    """The one door of every action at a table (issue 34.6): `check_can_play` on the acting
    user (the action's first argument) before anything else is read or written, so that no
    action can forget it. tests/test_code_shape.py checks that every public function of the
    write path that takes the acting user is one of these."""

    @functools.wraps(action)
    def checked(user: User, *args, **kwargs):
        check_can_play(user)
        return action(user, *args, **kwargs)

    checked.acting = True
    return checked


def _readable_locked(user: User, game_id: int, *, with_seats: bool = False) -> Game:
    """The game, locked, if this user may read it (access.may_read_game); else NotFound, the
    answer for a game that does not exist, whatever the action (issue 34.7)."""
    game = locked_game(game_id, with_seats=with_seats)
    if not access.may_read_game(game, user):
        raise NotFound("There is no such game.")
    return game


# --- the lobby: create, join, leave, invite, start ------------------------------------------------


@dataclass(frozen=True)
class NewGame:
    kind: str
    seat_count: int
    public: bool = False
    turn_seconds: int = 0
    target: int = 1000
    advanced: bool = False
    bots: tuple[str, ...] = ()
    robots: tuple[int, ...] = ()
    watchable_by_link: bool = True


@acting
def create_game(creator: User, spec: NewGame) -> Game:
    if spec.kind not in engines.ENGINES:
        raise GameError("Choose Geared or Out of Gears.")
    options = page(spec.kind).options(spec)  # the game's own settings, checked
    low, high = engines.engine(spec.kind).seat_range(options)
    if not low <= spec.seat_count <= high:
        raise GameError(f"This game is for {low} to {high} players.")
    if len(spec.bots) >= spec.seat_count:
        raise GameError("Leave at least one seat for a person: yours.")
    if any(b not in BotKind.values for b in spec.bots):
        raise GameError("Unknown bot.")
    if spec.turn_seconds not in {seconds for seconds, _label in TURN_TIMES}:
        raise GameError("Choose a time per turn from the list.")
    with transaction.atomic():
        _lock_user(creator)  # two quick clicks must not both pass the limit below
        limit = settings.GEARTABLE_OPEN_TABLES_PER_USER
        if Game.objects.filter(creator=creator, status=Status.OPEN).count() >= limit:
            raise Conflict(
                f"You already have {limit} tables waiting for players: start or leave one first."
            )
        game = Game.objects.create(
            kind=spec.kind,
            seat_count=spec.seat_count,
            public=spec.public,
            watchable_by_link=spec.watchable_by_link,
            turn_seconds=spec.turn_seconds,
            options=options,
            creator=creator,
        )
        Seat.objects.create(game=game, user=creator, robots=_check_robots(game, spec.robots))
        Seat.objects.bulk_create(
            Seat(game=game, bot=b, bot_number=i) for i, b in enumerate(spec.bots, start=1)
        )
    return game


def _lock_user(user: User) -> None:
    """Serialise one user's requests that check a per-user limit, until the transaction ends."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()


def _check_robots(game: Game, robots, taken: set[int] = frozenset()) -> list[int]:
    """What a joining player chose of their seat (Out of Gears: robots); empty: at random."""
    return page(game.kind).seat_choice(game, robots, taken)


@acting
def join_game(user: User, game_id: int, *, robots=(), token: str | None = None) -> Game:
    """Take a seat at an open table. A rematch table starts when its last seat is taken,
    however it is taken (the end screen's Rematch, the table's Join button, the API): nobody
    has to come back to start it."""
    with transaction.atomic():
        game = locked_game(game_id)
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            return game  # joining twice (a double click) is harmless
        invited = game.invitations.filter(user=user, accepted__isnull=True).exists()
        if not (game.public or invited or access.GameTies(game, user, token).link):
            raise NotFound("There is no such game.")
        if game.status != Status.OPEN:
            raise Conflict("This game has already started.")
        if len(seats) >= game.seat_count:
            raise Conflict("This game is full.")
        taken = {r for s in seats for r in s.robots}
        Seat.objects.create(game=game, user=user, robots=_check_robots(game, robots, taken))
        game.invitations.filter(user=user, accepted__isnull=True).update(accepted=timezone.now())
        _touch(game)
        live.forget_turns([*(s.user_id for s in seats), user.pk])  # their My games' lists
        if game.rematch_of_id is not None and len(seats) + 1 == game.seat_count:
            game = _start(locked_game(game.pk), user)  # the last seat of a rematch starts it
    return game


def _locked_with_seat(user: User, game_id: int, not_found: str) -> tuple[Game, Seat]:
    """The game, locked, and the user's seat in it; NotFound if they have none (`not_found`
    for one who may read the game, the missing game's sentence for anyone else)."""
    game = _readable_locked(user, game_id)
    seat = seat_of(game, user)
    if seat is None:
        raise NotFound(not_found)
    return game, seat


@acting
def leave_game(user: User, game_id: int) -> None:
    with transaction.atomic():
        game, seat = _locked_with_seat(user, game_id, "You are not in this game.")
        if game.status != Status.OPEN:
            raise Conflict("The game has started: resign instead.")
        if game.creator_id == user.pk:
            # The creator leaving closes the table: nobody else can start it.
            game.status = Status.ABORTED
            game.finished = timezone.now()
            game.save(update_fields=["status", "finished", "updated"])
        else:
            seat.delete()
        _touch(game)
        live.forget_turns([*game.seats.values_list("user_id", flat=True), user.pk])


@acting
def invite(inviter: User, game_id: int, who: str) -> Invitation:
    """Invite by username or by e-mail address; someone without an account gets a sign-up link.
    An address typed in is an e-mail invitation whoever owns it: every e-mail rule applies (the
    daily cap, one waiting per address, the suppression list), and the answer never says
    whether a player owns the address."""
    who = who.strip()
    if not who:
        raise GameError("Type a username or an e-mail address.")
    with transaction.atomic():
        game = locked_game(game_id)
        if seat_of(game, inviter) is None:
            raise NotFound("There is no such game.")
        if game.status != Status.OPEN:
            raise Conflict("This game has already started.")
        user = None if _is_address(who) else User.objects.filter(username__iexact=who).first()
        if user is None and "@" in who:
            if game.invitations.filter(accepted__isnull=True, email__iexact=who).exists():
                raise Conflict("That player is already invited.")
            _check_email_invitation(inviter, who)
            invitation = _new_invitation(game, inviter, email=who, via=Invitation.Via.EMAIL)
            _touch(game)  # the table's players see who is invited (open pages redraw)
            return invitation
        if user is None:
            raise GameError(f"There is no player called “{who}”.")
        if seat_of(game, user) is not None:
            raise Conflict(f"{user.name} is already in this game.")
        waiting = game.invitations.filter(accepted__isnull=True, user=user)
        if waiting.filter(declined__isnull=False).exists():
            raise Conflict(f"{user.name} has declined this table’s invitation.")
        if waiting.exists():
            raise Conflict("That player is already invited.")
        _check_player_invitation(inviter, user, who)
        invitation = _new_invitation(game, inviter, user=user, via=Invitation.Via.USERNAME)
        _touch(game)  # the table's players see who is invited (open pages redraw)
        return invitation


def _is_address(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def _new_invitation(
    game: Game, inviter: User, *, via: str, user: User | None = None, email: str = ""
) -> Invitation:
    """The invitation and its e-mail's outbox row, due to the sweep from the start: if its own
    task is lost (the broker down at commit, Redis restarted empty), the sweep sends it. Its
    e-mail is skipped from the start when the invitee's rules say so (games/reads/invitations.py):
    the invitation itself stands. Call with the inviter's row locked (_lock_user)."""
    invitation = Invitation(
        game=game,
        inviter=inviter,
        user=user,
        email=email,
        via=via,
        next_attempt=outbox.first_attempt(),
    )
    reason = invitations.email_unwanted(invitation)
    if not reason and invitations.emailed_lately(invitation):
        reason = "An invitation e-mail from the same player went to this address within a day."
    if reason:
        invitation.state, invitation.error, invitation.next_attempt = (
            Invitation.State.SKIPPED,
            reason,
            None,
        )
    invitation.save()
    if user is not None:
        live.forget_turns([user.pk])  # their My games lists the invitation
    if not reason:
        effects.after_commit("games.tasks.send_invitation", invitation.pk)
    webpush.queue_invitation(invitation)  # and to the invitee's devices (docs/notifications.md)
    return invitation


def _sent_today(inviter: User, via: str):
    return Invitation.objects.filter(
        inviter=inviter, via=via, created__gte=timezone.now() - timedelta(days=1)
    )


def _check_player_invitation(inviter: User, user: User, typed: str) -> None:
    """An invitation by username: a daily limit per inviter, and the invitee's say."""
    _lock_user(inviter)
    limit = settings.GEARTABLE_PLAYER_INVITATIONS_PER_DAY
    if _sent_today(inviter, Invitation.Via.USERNAME).count() >= limit:
        raise GameError(
            f"You have invited {limit} players by username in the last 24 hours, the most "
            "allowed. Share the table's link instead.",
            status=429,
        )
    if invitations.refuses(user, inviter):
        # The name as typed, and nothing of the player the inviter could not see anyway.
        raise Forbidden(f"{typed} takes invitations only from players they have played with.")


def _check_email_invitation(inviter: User, address: str) -> None:
    """An invitation to an address typed in: what keeps the site from relaying spam."""
    try:
        validate_email(address)
    except ValidationError:
        raise GameError("That is not a valid e-mail address.") from None
    if EmailSuppression.covers(address):
        raise Forbidden("That address has asked Geartable not to send it invitations.")
    waiting = Invitation.objects.filter(
        email__iexact=address, accepted__isnull=True, game__status=Status.OPEN
    )
    if waiting.exists():
        raise Conflict("That address already has an invitation waiting; one at a time.")
    _lock_user(inviter)
    limit = settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY
    # Counted by how they were made: an e-mail invitation accepted (its row then names the
    # player who took it) still counts.
    if _sent_today(inviter, Invitation.Via.EMAIL).count() >= limit:
        raise GameError(
            f"You have sent {limit} e-mail invitations in the last 24 hours, the most allowed. "
            "Invite players by username, or share the table's link.",
            status=429,
        )


def email_invitation_for(user: User, token: str) -> Invitation:
    """The invitation of an e-mail's link, for this user to look at; nothing changes."""
    invitation = Invitation.objects.filter(token=token).select_related("game", "inviter").first()
    if invitation is None:
        raise NotFound("This invitation link is not valid.")
    if invitation.user_id is not None and invitation.user_id != user.pk:
        raise NotFound("This invitation is for someone else.")
    return invitation


@acting
def accept_email_invitation(user: User, token: str, *, robots=()) -> Game:
    """The Join button behind an invitation e-mail's link (a POST: following the link only
    shows the table): the invitation becomes this user's, and they take the seat. All or
    nothing: a refused join (full, started) leaves the invitation as it was."""
    with transaction.atomic():
        invitation = email_invitation_for(user, token)
        if invitation.user_id is None:
            Invitation.objects.filter(pk=invitation.pk, user__isnull=True).update(user=user)
        return join_game(user, invitation.game_id, robots=robots, token=invitation.game.join_token)


@acting
def invitation_to_decline(user: User, game_id: int, token: str = "") -> Invitation:
    """The invitation this user may turn down with the table page's Decline: their own to this
    open table, or the one of the e-mail link they followed (`token`, email_invitation_for).
    A stranger's answer is a missing game's, whether the game exists or not."""
    if Seat.objects.filter(game_id=game_id, user=user).exists():
        raise Conflict("You have joined this table: leave it instead.")
    if token:
        invitation = email_invitation_for(user, token)
        if invitation.game_id != game_id or invitation.accepted is not None:
            raise NotFound("There is no such game.")
    else:
        invitation = (
            Invitation.objects.filter(game_id=game_id, user=user, accepted__isnull=True)
            .select_related("game", "inviter")
            .order_by("-created")
            .first()
        )
        if invitation is None:
            raise NotFound("There is no such game.")
    if invitation.game.status != Status.OPEN:
        raise Conflict("This table is no longer waiting for players.")
    return invitation


def decline_invitation(invitation: Invitation, *, never_again: bool = False) -> bool:
    """An invitation turned down: the one way both doors decline, the invitee's Decline on the
    table's page (invitation_to_decline) and an invitation e-mail's decline link (`never_again`:
    its address is never sent another invitation, EmailSuppression). The host's table shows it
    declined (its version moves, so open pages redraw); the invitee may still join while the
    table waits. True when this invitation changed: one accepted, declined already, or of a
    table that started or closed keeps its row as it was."""
    with transaction.atomic():
        if never_again:
            EmailSuppression.add(invitation.email, EmailSuppression.Reason.UNSUBSCRIBED)
        game = locked_game(invitation.game_id)
        if game.status != Status.OPEN:
            return False
        changed = Invitation.objects.filter(
            pk=invitation.pk, accepted__isnull=True, declined__isnull=True
        ).update(declined=timezone.now())
        if changed:
            _touch(game)
            if invitation.user_id is not None:
                live.forget_turns([invitation.user_id])  # their My games lists it no more
        return bool(changed)


@acting
def start_game(user: User, game_id: int) -> Game:
    with transaction.atomic():
        game = _readable_locked(user, game_id)
        if game.creator_id != user.pk:
            raise Forbidden("Only the player who created the game can start it.")
        return _start(game, user)


def table_rng() -> random.Random:
    """The chance at a table's start (seat order, robots, the game's seed): the system's own.
    CI's test run replaces it with a generator seeded per test (tests/conftest.py), so that a
    landing never depends on a lucky deal; a developer's runs keep drawing new ones."""
    return secrets.SystemRandom()


def _start(game: Game, user: User) -> Game:
    """Start the locked, open game; `user` is the player whose click started it."""
    if game.status != Status.OPEN:
        raise Conflict("This game has already started.")
    seats = list(game.seats.select_related("user", "replaced_user"))
    if len(seats) != game.seat_count:
        raise Conflict(f"Wait until all {game.seat_count} seats are filled.")
    rng = table_rng()
    rng.shuffle(seats)  # seat order at random; the engine picks the first player (G4)
    for position, seat in enumerate(seats, start=1):
        seat.position = position
    game.seed = rng.getrandbits(62)
    options = dict(game.options)
    options["names"] = seat_names(seats)
    options.update(page(game.kind).start_options(game, seats, rng))  # e.g. robots per seat
    Seat.objects.bulk_update(seats, ["position", "robots"])
    eng = engines.engine(game.kind)
    game.state = eng.new_game([s.seat_id for s in seats], seed=game.seed, options=options)
    game.options = options  # exactly what the engine got: with the seed, it replays the game
    game.status = Status.ACTIVE
    game.started = timezone.now()
    _after_change(game, eng, new_turn=True)
    seats, step = _settle(game, eng)
    game.save(
        update_fields=[
            "options",
            "seed",
            "state",
            "status",
            "started",
            "version",
            "turn",
            "turn_version",
            "deadline",
            "due_since",
            "updated",
        ]
    )
    _sync_seats(game, seats, step)
    if not game.public and not game.watchable_by_link:
        # Its link no longer opens it: the streams of those who watched by it read their right
        # again from the database (the cache is set only after this commit's event).
        events.access_changed(game_id=game.pk)
    mover = next(s for s in seats if s.user_id == user.pk)
    _queue_followups(game, seats, step, mover=mover, new_turn=True)
    return game


# --- a rematch: the same players, one click each ------------------------------------------------


def rematch_of(game: Game) -> Game | None:
    """The rematch offered after this finished game, if any (not one that was called off)."""
    return (
        Game.objects.filter(rematch_of=game, imported=False)
        .exclude(status=Status.ABORTED)
        .order_by("pk")
        .first()
    )


@acting
def rematch(user: User, game_id: int) -> Game:
    """After a finished game, the same table again: the first player to ask opens it, with the
    same kind, options, time per turn, robots and bots, and every other player is invited; each
    of them accepts with one click, and the game starts by itself once the last one has."""
    with transaction.atomic():
        old = locked_game(game_id)  # serialises two players asking at the same moment
        seats = list(old.seats.select_related("user"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotFound("There is no such game.")
        if old.status != Status.FINISHED:
            raise Conflict("A rematch follows a finished game.")
        offered = rematch_of(old)
        if offered is not None:
            old.shown_changed()  # the end screen's offer, now accepted by one more
            return _accept_rematch(user, offered, mine.robots)
        spec = NewGame(
            kind=old.kind,
            seat_count=old.seat_count,
            turn_seconds=old.turn_seconds,
            target=old.options.get("target", 1000),
            advanced=bool(old.options.get("advanced")),
            bots=tuple(s.bot for s in seats if s.bot),
            robots=tuple(mine.robots),
        )
        game = create_game(user, spec)
        game.rematch_of = old
        game.save(update_fields=["rematch_of", "updated"])
        old.shown_changed()  # every open end screen shows the offer
        others = [s for s in seats if s.user_id and s.user_id != user.pk and not s.bot]
        if others:
            _check_rematch_offer(user)
        for seat in others:
            _new_invitation(game, user, user=seat.user, via=Invitation.Via.REMATCH)
        if not others:  # against bots only: nobody to wait for
            game = _start(locked_game(game.pk), user)
    return game


def _check_rematch_offer(user: User) -> None:
    """Offers of a rematch that invite someone, per player and day (each sends e-mails)."""
    _lock_user(user)
    limit = settings.GEARTABLE_REMATCHES_PER_DAY
    offers = _sent_today(user, Invitation.Via.REMATCH).values("game").distinct().count()
    if offers >= limit:
        raise GameError(
            f"You have offered {limit} rematches in the last 24 hours, the most allowed.",
            status=429,
        )


def _accept_rematch(user: User, game: Game, robots) -> Game:
    if game.status != Status.OPEN:
        return game  # it has started (or ended) already: the player goes to it
    if not game.invitations.filter(user=user).exists() and game.creator_id != user.pk:
        raise NotFound("There is no such game.")
    taken = {r for s in game.seats.exclude(user=user) for r in s.robots}
    # The one way to take a seat: the last one taken starts the rematch (join_game).
    return join_game(user, game.pk, robots=[] if set(robots) & taken else robots)


# --- playing ---------------------------------------------------------------------------------


@acting
def submit_action(
    user: User,
    game_id: int,
    version: int | None,
    action: object,
    *,
    by_kind: dict[str, object] | None = None,
) -> Game:
    """A person's move (Geared) or program (Out of Gears), version-checked. `by_kind`: the
    action as each kind of game's own form reads the POST (parsed without the database), of
    which the game's kind chooses one. The game is read once, locked, with its seats: the
    answer's page is drawn from the game returned, and a refusal (GameError) carries the game
    as it was read (`exc.game`, unchanged) for the answer to show."""
    with transaction.atomic():
        # With its seats: the move needs them, and so does the page drawn in answer to it.
        game = locked_game(game_id, with_seats=True)
        try:
            if by_kind is not None:
                action = by_kind.get(game.kind)
            if action is None:
                raise GameError("That is not an action.")
            seat = seat_of(game, user)
            if seat is None:
                if former_seat_of(game, user) is not None:
                    raise Forbidden("You left this game: a bot plays your seat now.")
                raise NotFound("There is no such game.")
            eng = engines.engine(game.kind)
            _check_version(game, version, eng)
            return _apply(game, seat, action, Move.Kind.ACTION, eng, game.table)
        except GameError as exc:
            exc.game = game
            raise


def _check_version(game: Game, version: int | None, eng: engines.Engine) -> None:
    if game.status != Status.ACTIVE:
        raise Conflict("This game is over." if game.is_over else "This game has not started yet.")
    if version is None:
        raise GameError("The form is missing the game's version; reload the page.")
    # Simultaneous turns (Out of Gears' programs): only a new turn makes a page stale.
    current = game.turn_version if eng.SIMULTANEOUS else game.version
    if version < current or version > game.version:
        raise Conflict("The game has moved on since this page was loaded; here it is as it is now.")


def _apply(
    game: Game,
    seat: Seat,
    action: object,
    kind: str,
    eng: engines.Engine,
    seats: list[Seat] | None = None,
) -> Game:
    """One action of `seat` on the locked game, through the engine; `seats`: the game's seats
    as read with it under the lock (else they are read here, after the change)."""
    if not isinstance(action, dict):
        raise GameError("That is not an action.")
    if eng.needs_resolution(game.state):
        raise Conflict("Every program is in; the turn is being resolved.")
    if not eng.SIMULTANEOUS:
        to_act = eng.to_act(game.state)
        if seat.seat_id not in to_act:
            turn_seat = next(iter(to_act), None)
            names = seat_names(seats or game.seats.select_related("user", "replaced_user"))
            raise Conflict(f"It is {names.get(turn_seat, 'another player')}'s turn.")
    try:
        state = eng.apply(game.state, seat.seat_id, action)
    except IllegalMove as exc:
        raise GameError(exc.message) from None
    _record(game, seat, kind, action)
    old_turn = game.turn
    game.state = state
    new_turn = eng.turn(state) != old_turn
    _after_change(game, eng, new_turn=new_turn)
    seats, step = _settle(game, eng, seats)
    _save(game)
    _sync_seats(game, seats, step)
    if seat.missed_deadlines and kind == Move.Kind.ACTION and not seat.is_bot:
        seat.missed_deadlines = 0  # "in a row": a move of one's own resets the count
        Seat.objects.filter(pk=seat.pk).update(missed_deadlines=0)
    _queue_followups(game, seats, step, mover=seat, new_turn=new_turn)
    return game


def resolve_turn(game_id: int, turn: int) -> bool:
    """Out of Gears: run turn `turn` once every program is in. Idempotent: False if no-op."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game is None:
            return False  # deleted since the task was queued: nothing to resolve
        if game.status != Status.ACTIVE or game.turn != turn:
            return False
        return _resolve(game)


def _resolve(game: Game) -> bool:
    """Resolve the locked game's turn if every program is in (O7–O15)."""
    eng = engines.engine(game.kind)
    if not eng.needs_resolution(game.state):
        return False
    game.state = eng.resolve(game.state)
    _record(game, None, Move.Kind.RESOLVE, None)
    _after_change(game, eng, new_turn=True)
    seats, step = _settle(game, eng)
    _save(game)
    _sync_seats(game, seats, step)
    _queue_followups(game, seats, step, resolved=True)
    return True


def catch_up(game_id: int) -> int:
    """The outbox sweep's repair of a game that is owed a step (its `due_since` is old): the
    resolution of a complete Out of Gears turn, then every bot that must act. Idempotent:
    each step is checked under the game's row lock. Returns the steps taken."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game is None or game.status != Status.ACTIVE:
            return 0
        resolved = int(_resolve(game))
    return resolved + play_bots(game_id)


def play_bots(game_id: int, *, limit: int = 60) -> int:
    """Let every bot that must act now act, through the same write path. Returns moves made."""
    made = 0
    while made < limit:
        with transaction.atomic():
            game = locked_game(game_id, with_seats=True)
            if game.status != Status.ACTIVE:
                return made
            eng = engines.engine(game.kind)
            to_act = eng.to_act(game.state)
            seats = game.table
            bot = next((s for s in seats if s.is_bot and s.seat_id in to_act), None)
            if bot is None:
                return made
            action = engines.bot_action(
                game.kind, bot.bot, game.state, bot.seat_id, f"{game.seed}:{game.version}"
            )
            _apply(game, bot, action, Move.Kind.ACTION, eng, seats)
            made += 1
    # Many bot moves in a row (a game of bots): continue in a fresh task, not in this one.
    effects.enqueue("games.tasks.play_bots", game_id)
    return made


# --- internals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What a change leaves the server owing the game, worked out once from the engine (after
    the change): who must act now, and whether a complete Out of Gears turn waits for its
    resolution or a bot must play. `due_since`, Seat.to_act and the tasks queued all read it."""

    to_act: frozenset[str]  # the seats that must act now: none unless the game is in play
    resolve: bool  # every program is in: the turn waits for its resolution
    bots: bool  # a bot must act (never while a resolution waits)

    @property
    def due(self) -> bool:
        return self.resolve or self.bots


def _record(game: Game, seat: Seat | None, kind: str, action: dict | None) -> None:
    game.move_count += 1
    Move.objects.create(game=game, seq=game.move_count, seat=seat, kind=kind, action=action)


def _after_change(game: Game, eng: engines.Engine, *, new_turn: bool) -> None:
    """Bump the version; on a new turn, restart the clock; at the end, record the result."""
    game.version += 1
    game.turn = eng.turn(game.state)
    if new_turn:
        game.turn_version = game.version
        game.deadline = (
            timezone.now() + timedelta(seconds=game.turn_seconds) if game.turn_seconds else None
        )
    if eng.is_over(game.state) and game.status == Status.ACTIVE:
        game.status = Status.FINISHED
        game.finished = timezone.now()
        game.result = eng.result(game.state)
        game.deadline = None
        ratings.record_game(game)  # in the game-over transaction: rated once, with the result


def _save(game: Game) -> None:
    game.save(
        update_fields=[
            "state",
            "version",
            "move_count",
            "turn",
            "turn_version",
            "deadline",
            "status",
            "finished",
            "result",
            "due_since",
            "updated",
        ]
    )


def _settle(
    game: Game, eng: engines.Engine, seats: list[Seat] | None = None
) -> tuple[list[Seat], Step]:
    """The game's seats (those read with it under the lock, else one query) and its Step;
    `due_since` set when the server now owes the game a step: a complete Out of Gears turn
    to resolve, or a bot whose turn it is (the outbox that the sweep reads; docs/delivery.md)."""
    if seats is None:
        seats = list(game.seats.select_related("user", "replaced_user"))
    if game.status == Status.ACTIVE:
        resolve = eng.needs_resolution(game.state)
        to_act = frozenset(eng.to_act(game.state))
    else:
        resolve, to_act = False, frozenset()
    bots = not resolve and any(s.is_bot and s.seat_id in to_act for s in seats)
    step = Step(to_act=to_act, resolve=resolve, bots=bots)
    game.due_since = timezone.now() if step.due else None
    return seats, step


def _sync_seats(game: Game, seats: list[Seat], step: Step) -> None:
    """Keep Seat.to_act (the "your turn" index) in step with the engine, in one UPDATE of the
    rows that change, and in the `seats` loaded (a page drawn from them next shows who is away
    while it waits for them)."""
    positions = sorted(int(s) for s in step.to_act)
    should = Q(position__in=positions)
    Seat.objects.filter(game_id=game.pk).filter(
        (should & Q(to_act=False)) | (~should & Q(to_act=True))
    ).update(to_act=Case(When(should, then=True), default=False))
    live.forget_turns(uid for s in seats for uid in (s.user_id, s.replaced_user_id))
    for seat in seats:
        seat.to_act = seat.position in positions


def _touch(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, updated=timezone.now())
    live.forget_game(game.pk)
    if game.public:
        live.forget_lobby()  # a seat taken or left: the open table's count


def _queue_followups(
    game: Game,
    seats: list[Seat],
    step: Step,
    *,
    mover: Seat | None = None,
    new_turn: bool = False,
    resolved: bool = False,
) -> None:
    """After commit: bots act, a complete Out of Gears turn resolves, players are told. Each
    is also recorded (`due_since`, Notification rows), so the sweep repairs a lost task."""
    Note = notifications.Kind
    game_id, turn = game.pk, game.turn
    if game.status == Status.FINISHED:
        # Everyone, the last mover too: the e-mail carries the result (and after a timeout
        # the "mover" is the absent player, who has not seen the end).
        notifications.queue(game, Note.GAME_OVER, notifications.human_seats(game), turn=turn)
        return
    if game.status != Status.ACTIVE:
        return
    if step.resolve:
        effects.after_commit("games.tasks.resolve_turn", game_id, turn)
        return
    if step.bots:
        effects.after_commit("games.tasks.play_bots", game_id)
    if resolved:
        humans = [s for s in seats if s.user_id and not s.bot]
        notifications.queue(game, Note.TURN_RESOLVED, humans, turn=turn)
    elif new_turn:
        waiting = [
            s
            for s in seats
            if s.seat_id in step.to_act
            and s.user_id
            and not s.bot
            and (mover is None or s.pk != mover.pk)
        ]
        notifications.queue(game, Note.YOUR_TURN, waiting, turn=turn)


# --- who is watching ------------------------------------------------------------------------

# The open page's check for news runs every 2 s: its mark is written at most this often, so
# that watching costs one small UPDATE per player and 20 s, not one per check.
WATCH_WRITE_EVERY = timedelta(seconds=20)


def mark_seen(seat: Seat, version: int, mark: int) -> None:
    """Remember what a player has now been shown of their game (the version, and the newest
    event or turn story), so that the next visit marks what is new: one UPDATE, when changed."""
    if seat.seen_version != version or seat.seen_mark != mark:
        Seat.objects.filter(pk=seat.pk).update(seen_version=version, seen_mark=mark)
        seat.seen_version, seat.seen_mark = version, mark


def note_watching(seat_id: int, last: datetime | None, *, now: datetime | None = None) -> None:
    """The player of this seat has the game's page open (its live check just ran); `last` is the
    mark already stored. A conditional UPDATE: two checks at once write it once."""
    now = now or timezone.now()
    if last is not None and timezone.is_naive(last):  # SQLite's raw cursor: UTC, naive
        last = timezone.make_aware(last, UTC)
    if last is not None and now - last < WATCH_WRITE_EVERY:
        return
    Seat.objects.filter(pk=seat_id).filter(
        Q(watched__isnull=True) | Q(watched__lt=now - WATCH_WRITE_EVERY)
    ).update(watched=now)


# --- deadlines, reminders, resigning ---------------------------------------------------------


MAX_TIMEOUT_STEPS = 20  # actions a missed turn may take before the one that must end it


def expire_turn(game_id: int, turn: int, *, now=None) -> bool:
    """The deadline of turn `turn` has passed: act for every absent seat through the same write
    path (Geared: the greedy bot plays; Out of Gears: O19's default programs), count the miss,
    and after `replace_after` misses in a row put a bot in the seat. Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Status.ACTIVE
            or game.turn != turn
            or game.deadline is None
            or game.deadline > now
        ):
            return False
        eng = engines.engine(game.kind)
        if eng.needs_resolution(game.state):
            # Nobody is absent: every program is in and only the resolution is missing (its
            # task was lost). Resolve it now rather than leave the deadline behind us.
            return _resolve(game)
        seats = {s.seat_id: s for s in game.seats.select_related("user", "replaced_user")}
        absent = [seats[sid] for sid in sorted(eng.to_act(game.state), key=int)]
        if vacation.hold_deadline(game, absent, now):  # a player away: the turn waits
            return False
        for seat in absent:
            # The rules' default for the missed turn (Geared: the greedy bot plays it, perhaps
            # rearranging first; Out of Gears: O19's default program), bounded: the last step
            # must end the seat's turn.
            for step in range(MAX_TIMEOUT_STEPS + 1):
                if game.status != Status.ACTIVE or seat.seat_id not in eng.to_act(game.state):
                    break
                rng = random.Random(f"{game.seed}:{game.version}")
                last = step == MAX_TIMEOUT_STEPS
                action = eng.timeout_actions(game.state, rng, last_chance=last).get(seat.seat_id)
                if action is None:
                    break
                _apply(game, seat, action, Move.Kind.TIMEOUT, eng)
            if not seat.is_bot:
                seat.missed_deadlines += 1
                Seat.objects.filter(pk=seat.pk).update(missed_deadlines=seat.missed_deadlines)
                if seat.missed_deadlines >= game.options.get("replace_after", 3):
                    replace_with_bot(game, seat, missed=True)
    return True


@acting
def resign(user: User, game_id: int) -> Game:
    """A player leaves an active game: a greedy bot takes the seat and the game goes on."""
    with transaction.atomic():
        game, seat = _locked_with_seat(user, game_id, "There is no such game.")
        if game.status != Status.ACTIVE:
            raise Conflict("Only a game in play can be resigned from.")
        replace_with_bot(game, seat, missed=False)
    return game


def replace_with_bot(game: Game, seat: Seat, *, missed: bool) -> None:
    """A greedy bot takes the seat (of the locked, active game) and the game goes on; the
    others are told, and the player too if they `missed` their deadlines."""
    user = seat.user
    seat.bot, seat.replaced_user, seat.user = "greedy", user, None
    seat.save(update_fields=["bot", "replaced_user", "user"])
    game.version += 1
    seats, step = _settle(game, engines.engine(game.kind))
    game.save(update_fields=["version", "due_since", "updated"])
    if missed:
        seat.user = user  # only to address the e-mail; the seat row no longer names them
        notifications.queue(game, notifications.Kind.REPLACED, [seat], turn=game.turn)
        seat.user = None
    others = notifications.human_seats(game, exclude=seat)
    notifications.queue(
        game, notifications.Kind.PLAYER_REPLACED, others, turn=game.turn, about=seat.position
    )
    _sync_seats(game, seats, step)
    _queue_followups(game, seats, step)


def remind(game_id: int, turn: int, *, now=None) -> int:
    """Once per turn, when about 80% of the time is gone, remind those who have not played."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Status.ACTIVE
            or game.turn != turn
            or not game.deadline
            or not game.turn_seconds
            or game.reminded_turn == turn
            or now < game.deadline - timedelta(seconds=game.turn_seconds * 0.2)
        ):
            return 0
        game.reminded_turn = turn
        game.save(update_fields=["reminded_turn", "updated"])
        waiting = [
            s
            for s in game.seats.select_related("user", "replaced_user")
            if s.to_act and s.user_id and not s.bot
        ]
        return len(notifications.queue(game, notifications.Kind.REMINDER, waiting, turn=turn))


def due_deadlines(now=None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(game, turn) pairs whose deadline has passed, and those due a reminder (indexed)."""
    now = now or timezone.now()
    active = Game.objects.filter(status=Status.ACTIVE, deadline__isnull=False)
    expired = list(active.filter(deadline__lte=now).values_list("pk", "turn")[:500])
    # The reminder is due once 80% of the turn's time is gone: deadline - 20% of it <= now.
    # turn_seconds takes three values, so one indexed range query per value.
    to_remind: list[tuple[int, int]] = []
    for seconds in [seconds for seconds, _label in TURN_TIMES if seconds]:
        to_remind += list(
            active.filter(
                turn_seconds=seconds,
                deadline__gt=now,
                deadline__lte=now + timedelta(seconds=seconds * 0.2),
            )
            .exclude(reminded_turn=F("turn"))
            .values_list("pk", "turn")[:500]
        )
    return expired, to_remind
