"""What every action shares: the game's lock (`locked_game`), the one door of an action at a
table (`acting`, which runs `check_can_play`), and what a change leaves the game owing, worked
out once (`Step`): the version bumped, the seats' `to_act` kept in step, the follow-ups (tasks,
notifications) queued on commit. Its names that begin with `_` are the package's own: only the
modules of games/actions/ call them."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Case, F, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import BOT_BY_HAND, User
from games import effects, engines
from games.actions import rating_changes
from games.errors import Forbidden, NotFound
from games.live import cache as live
from games.live import events as live_events
from games.models import Game, Move, Seat, Status
from games.notifications import queueing as notifications
from games.reads import access
from games.reads.seating import seat_of


def locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """The game row, locked until the transaction ends (`Game.objects.locked`); NotFound if
    there is none. Call inside transaction.atomic(). `with_seats`: its seats and players
    loaded along (`game.table`), read once the lock is held."""
    game = Game.objects.locked(game_id, with_seats=with_seats)
    if game is None:
        raise NotFound(gettext("There is no such game."))
    return game


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
        raise NotFound(gettext("There is no such game."))
    return game


def _lock_user(user: User) -> None:
    """Serialise one user's requests that check a per-user limit, until the transaction ends."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()


def _locked_with_seat(user: User, game_id: int, not_found: str) -> tuple[Game, Seat]:
    """The game, locked, and the user's seat in it; NotFound if they have none (`not_found`
    for one who may read the game, the missing game's sentence for anyone else)."""
    game = _readable_locked(user, game_id)
    seat = seat_of(game, user)
    if seat is None:
        raise NotFound(not_found)
    return game, seat


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


def _changed(
    game: Game,
    eng: engines.Engine,
    state: dict,
    *,
    seat: Seat | None,
    kind: str,
    action: dict | None,
    seats: list[Seat] | None = None,
    seen: bool = False,
) -> None:
    """The engine's new `state` for the locked game, after `seat`'s `action` (no seat: the
    resolution of an Out of Gears turn), written in one go: the move recorded, the version
    bumped (a new turn restarts the clock; the end records the result), the Step worked out and
    the game saved, the seats' `to_act` in step, the follow-ups queued on commit. `seats`: as
    read with the game under the lock (else they are read here, after the change). `seen`: the
    mover is shown the game as the move left it (the move's answer), so what they have seen
    is written with the seats (actions/watching.py). The events the open pages hear of it go
    in one statement (`events.together`)."""
    resolved = kind == Move.Kind.RESOLVE
    with live_events.together():
        _record(game, seat, kind, action)
        new_turn = resolved or eng.turn(state) != game.turn
        game.state = state
        _after_change(game, eng, new_turn=new_turn, seats=seats)
        seats, step = _settle(game, eng, seats)
        _save(game)
        mover = seat if kind == Move.Kind.ACTION and seat is not None and not seat.is_bot else None
        _sync_seats(
            game,
            seats,
            step,
            mover=mover,  # a move of one's own resets the count of deadlines missed "in a row"
            seen=eng.news_mark(state) if seen and mover is not None else None,
        )
        if resolved:
            _queue_followups(game, seats, step, resolved=True)
        else:
            _queue_followups(game, seats, step, mover=seat, new_turn=new_turn)


def _record(game: Game, seat: Seat | None, kind: str, action: dict | None) -> None:
    game.move_count += 1
    Move.objects.create(game=game, seq=game.move_count, seat=seat, kind=kind, action=action)


def _after_change(
    game: Game, eng: engines.Engine, *, new_turn: bool, seats: list[Seat] | None = None
) -> None:
    """Bump the version; on a new turn, restart the clock; at the end, record the result
    (`seats`: as read with the game under the lock, else the ratings read them)."""
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
        # In the game-over transaction: rated once, with the result.
        rating_changes.record_game(game, seats)


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


def _sync_seats(
    game: Game,
    seats: list[Seat],
    step: Step,
    *,
    mover: Seat | None = None,
    seen: int | None = None,
) -> None:
    """Keep Seat.to_act (the "your turn" index) in step with the engine, and with it the
    person who moved (`mover`): their count of deadlines missed in a row back to 0 and, with
    `seen` (the game's news mark), what they have now seen (`_seen_with_move`). In one
    UPDATE of the rows that change, worked out from the `seats` read under the game's lock
    (no write changes `to_act` or `missed_deadlines` without it; the seen mark is the player's
    own, written without it, and only ever moves what the next page marks new), and in those
    rows (a page drawn from them next shows who is away while it waits for them). Nothing is
    written when nothing changes."""
    positions = {int(s) for s in step.to_act}
    now_acting, changed, deltas = [], [], {}
    mover_fields: dict[str, int] = {}
    if mover is not None:
        if mover.missed_deadlines:
            mover_fields["missed_deadlines"] = mover.missed_deadlines = 0
        if seen is not None:
            mover_fields.update(_seen_with_move(mover, game.version, seen))
    for seat in seats:
        acting = seat.position in positions
        if acting:
            now_acting.append(seat.pk)
        if acting != seat.to_act:
            changed.append(seat.pk)
            if seat.user_id:
                deltas[seat.user_id] = deltas.get(seat.user_id, 0) + (1 if acting else -1)
            seat.to_act = acting
        elif mover_fields and seat.pk == mover.pk:
            changed.append(seat.pk)
    if changed:
        fields = {"to_act": Case(When(pk__in=now_acting, then=True), default=False)}
        for name, value in mover_fields.items():
            field = Seat._meta.get_field(name)
            fields[name] = Case(
                When(pk=mover.pk, then=Value(value)), default=F(name), output_field=field
            )
        Seat.objects.filter(pk__in=changed).update(**fields)
    live.turns_moved(deltas, (uid for s in seats for uid in (s.user_id, s.replaced_user_id)))


def _seen_with_move(seat: Seat, version: int, mark: int) -> dict[str, int]:
    """The fields written with the seats (issue 36.1) when a move's answer shows the mover the
    game as the move left it: what `watching.mark_seen` would write after drawing that answer
    ({} if nothing). The seat keeps what it had seen until then, so that the answer marks as
    new what it marked before, and is marked (`seen_by_move`) so that `mark_seen` then writes
    nothing."""
    if seat.seen_version == version and seat.seen_mark == mark:
        return {}
    seat.seen_by_move = (version, mark)
    return {"seen_version": version, "seen_mark": mark}


def _touch(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, updated=timezone.now())
    game.changed_apart()  # its version is the row's no more: a later save reads the row again
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
        notifications.queue(game, Note.GAME_OVER, notifications.human_seats(seats), turn=turn)
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
