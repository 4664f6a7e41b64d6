"""A table's life before and after play: create, join, leave, invite (and accept or decline an
invitation), start, and a rematch, each under the game's lock."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import EmailSuppression, User
from games import effects, engines
from games.actions.base import (
    _after_change,
    _lock_user,
    _locked_with_seat,
    _queue_followups,
    _readable_locked,
    _settle,
    _sync_seats,
    _touch,
    acting,
    locked_game,
)
from games.errors import Conflict, Forbidden, GameError, NotFound
from games.kinds import game_kind
from games.live import cache as live
from games.live import events
from games.models import TURN_TIMES, BotKind, Game, Invitation, Seat, Status, seat_names
from games.notifications import outbox
from games.notifications import push as webpush
from games.reads import access, invitations
from games.reads.invitations import email_invitation_for
from games.reads.seating import rematch_of, seat_of


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
        raise GameError(gettext("Choose Geared or Out of Gears."))
    options = game_kind(spec.kind).options(spec)  # the game's own settings, checked
    low, high = engines.engine(spec.kind).seat_range(options)
    if not low <= spec.seat_count <= high:
        raise GameError(
            gettext("This game is for %(low)s to %(high)s players.") % {"low": low, "high": high}
        )
    if len(spec.bots) >= spec.seat_count:
        raise GameError(gettext("Leave at least one seat for a person: yours."))
    if any(b not in BotKind.values for b in spec.bots):
        raise GameError(gettext("Unknown bot."))
    if spec.turn_seconds not in {seconds for seconds, _label in TURN_TIMES}:
        raise GameError(gettext("Choose a time per turn from the list."))
    with transaction.atomic():
        _lock_user(creator)  # two quick clicks must not both pass the limit below
        limit = settings.GEARTABLE_OPEN_TABLES_PER_USER
        if Game.objects.filter(creator=creator, status=Status.OPEN).count() >= limit:
            raise Conflict(
                ngettext(
                    "You already have %(count)s table waiting for players: start or leave it "
                    "first.",
                    "You already have %(count)s tables waiting for players: start or leave one "
                    "first.",
                    limit,
                )
                % {"count": limit}
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


def _check_robots(game: Game, robots, taken: set[int] = frozenset()) -> list[int]:
    """What a joining player chose of their seat (Out of Gears: robots); empty: at random."""
    return game_kind(game.kind).seat_choice(game, robots, taken)


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
            raise NotFound(gettext("There is no such game."))
        if game.status != Status.OPEN:
            raise Conflict(gettext("This game has already started."))
        if len(seats) >= game.seat_count:
            raise Conflict(gettext("This game is full."))
        taken = {r for s in seats for r in s.robots}
        Seat.objects.create(game=game, user=user, robots=_check_robots(game, robots, taken))
        game.invitations.filter(user=user, accepted__isnull=True).update(accepted=timezone.now())
        _touch(game)
        live.forget_turns([*(s.user_id for s in seats), user.pk])  # their My games' lists
        if game.rematch_of_id is not None and len(seats) + 1 == game.seat_count:
            game = _start(locked_game(game.pk), user)  # the last seat of a rematch starts it
    return game


@acting
def leave_game(user: User, game_id: int) -> None:
    with transaction.atomic():
        game, seat = _locked_with_seat(user, game_id, gettext("You are not in this game."))
        if game.status != Status.OPEN:
            raise Conflict(gettext("The game has started: resign instead."))
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
        raise GameError(gettext("Type a username or an e-mail address."))
    with transaction.atomic():
        game = locked_game(game_id)
        if seat_of(game, inviter) is None:
            raise NotFound(gettext("There is no such game."))
        if game.status != Status.OPEN:
            raise Conflict(gettext("This game has already started."))
        user = None if _is_address(who) else User.objects.filter(username__iexact=who).first()
        if user is None and "@" in who:
            if game.invitations.filter(accepted__isnull=True, email__iexact=who).exists():
                raise Conflict(gettext("That player is already invited."))
            _check_email_invitation(inviter, who)
            invitation = _new_invitation(game, inviter, email=who, via=Invitation.Via.EMAIL)
            _touch(game)  # the table's players see who is invited (open pages redraw)
            return invitation
        if user is None:
            raise GameError(gettext("There is no player called “%(name)s”.") % {"name": who})
        if seat_of(game, user) is not None:
            raise Conflict(gettext("%(name)s is already in this game.") % {"name": user.name})
        waiting = game.invitations.filter(accepted__isnull=True, user=user)
        if waiting.filter(declined__isnull=False).exists():
            raise Conflict(
                gettext("%(name)s has declined this table’s invitation.") % {"name": user.name}
            )
        if waiting.exists():
            raise Conflict(gettext("That player is already invited."))
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
            ngettext(
                "You have invited %(count)s player by username in the last 24 hours, the most "
                "allowed. Share the table's link instead.",
                "You have invited %(count)s players by username in the last 24 hours, the most "
                "allowed. Share the table's link instead.",
                limit,
            )
            % {"count": limit},
            status=429,
        )
    if invitations.refuses(user, inviter):
        # The name as typed, and nothing of the player the inviter could not see anyway.
        raise Forbidden(
            gettext("%(name)s takes invitations only from players they have played with.")
            % {"name": typed}
        )


def _check_email_invitation(inviter: User, address: str) -> None:
    """An invitation to an address typed in: what keeps the site from relaying spam."""
    try:
        validate_email(address)
    except ValidationError:
        raise GameError(gettext("That is not a valid e-mail address.")) from None
    if EmailSuppression.covers(address):
        raise Forbidden(gettext("That address has asked Geartable not to send it invitations."))
    waiting = Invitation.objects.filter(
        email__iexact=address, accepted__isnull=True, game__status=Status.OPEN
    )
    if waiting.exists():
        raise Conflict(gettext("That address already has an invitation waiting; one at a time."))
    _lock_user(inviter)
    limit = settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY
    # Counted by how they were made: an e-mail invitation accepted (its row then names the
    # player who took it) still counts.
    if _sent_today(inviter, Invitation.Via.EMAIL).count() >= limit:
        raise GameError(
            ngettext(
                "You have sent %(count)s e-mail invitation in the last 24 hours, the most "
                "allowed. Invite players by username, or share the table's link.",
                "You have sent %(count)s e-mail invitations in the last 24 hours, the most "
                "allowed. Invite players by username, or share the table's link.",
                limit,
            )
            % {"count": limit},
            status=429,
        )


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
        raise Conflict(gettext("You have joined this table: leave it instead."))
    if token:
        invitation = email_invitation_for(user, token)
        if invitation.game_id != game_id or invitation.accepted is not None:
            raise NotFound(gettext("There is no such game."))
    else:
        invitation = (
            Invitation.objects.filter(game_id=game_id, user=user, accepted__isnull=True)
            .select_related("game", "inviter")
            .order_by("-created")
            .first()
        )
        if invitation is None:
            raise NotFound(gettext("There is no such game."))
    if invitation.game.status != Status.OPEN:
        raise Conflict(gettext("This table is no longer waiting for players."))
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
            raise Forbidden(gettext("Only the player who created the game can start it."))
        return _start(game, user)


def table_rng() -> random.Random:
    """The chance at a table's start (seat order, robots, the game's seed): the system's own.
    CI's test run replaces it with a generator seeded per test (tests/conftest.py), so that a
    landing never depends on a lucky deal; a developer's runs keep drawing new ones."""
    return secrets.SystemRandom()


def _start(game: Game, user: User) -> Game:
    """Start the locked, open game; `user` is the player whose click started it."""
    if game.status != Status.OPEN:
        raise Conflict(gettext("This game has already started."))
    seats = list(game.seats.select_related("user", "replaced_user"))
    if len(seats) != game.seat_count:
        raise Conflict(
            gettext("Wait until all %(count)s seats are filled.") % {"count": game.seat_count}
        )
    rng = table_rng()
    rng.shuffle(seats)  # seat order at random; the engine picks the first player (G4)
    for position, seat in enumerate(seats, start=1):
        seat.position = position
    game.seed = rng.getrandbits(62)
    options = dict(game.options)
    options["names"] = seat_names(seats)
    options.update(game_kind(game.kind).start_options(game, seats, rng))  # e.g. robots per seat
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
            raise NotFound(gettext("There is no such game."))
        if old.status != Status.FINISHED:
            raise Conflict(gettext("A rematch follows a finished game."))
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
            ngettext(
                "You have offered %(count)s rematch in the last 24 hours, the most allowed.",
                "You have offered %(count)s rematches in the last 24 hours, the most allowed.",
                limit,
            )
            % {"count": limit},
            status=429,
        )


def _accept_rematch(user: User, game: Game, robots) -> Game:
    if game.status != Status.OPEN:
        return game  # it has started (or ended) already: the player goes to it
    if not game.invitations.filter(user=user).exists() and game.creator_id != user.pk:
        raise NotFound(gettext("There is no such game."))
    taken = {r for s in game.seats.exclude(user=user) for r in s.robots}
    # The one way to take a seat: the last one taken starts the rematch (join_game).
    return join_game(user, game.pk, robots=[] if set(robots) & taken else robots)
