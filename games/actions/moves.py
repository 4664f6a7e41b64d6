"""Playing: a person's move (Geared) or program (Out of Gears), version-checked, the resolution of
a complete Out of Gears turn, and the bots' moves, each through the engine under the game's lock
(docs/code-map.md, "The path of a move")."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games import effects, engines
from games.actions.base import _changed, acting, locked_game
from games.engines.interface import IllegalMove
from games.errors import Conflict, Forbidden, GameError, NotFound
from games.models import Game, Move, Seat, Status, seat_names
from games.reads.seating import former_seat_of, seat_of
from games.words import refusal


@acting
def submit_action(
    user: User,
    game_id: int,
    version: int | None,
    action: object,
    *,
    by_kind: dict[str, object] | None = None,
    seen: bool = False,
) -> Game:
    """A person's move (Geared) or program (Out of Gears), version-checked. `by_kind`: the
    action as each kind of game's own form reads the POST (parsed without the database), of
    which the game's kind chooses one. The game is read once, locked, with its seats: the
    answer's page is drawn from the game returned, and a refusal (GameError) carries the game
    as it was read (`exc.game`, unchanged) for the answer to show. `seen`: the answer shows
    the player the game as the move left it: what they have seen is written with the move
    (actions/watching.py, `seen_with_move`)."""
    with transaction.atomic():
        # With its seats: the move needs them, and so does the page drawn in answer to it.
        game = locked_game(game_id, with_seats=True)
        try:
            if by_kind is not None:
                action = by_kind.get(game.kind)
            if action is None:
                raise GameError(gettext("That is not an action."))
            seat = seat_of(game, user)
            if seat is None:
                if former_seat_of(game, user) is not None:
                    raise Forbidden(gettext("You left this game: a bot plays your seat now."))
                raise NotFound(gettext("There is no such game."))
            eng = engines.engine(game.kind)
            _check_version(game, version, eng)
            return _apply(game, seat, action, Move.Kind.ACTION, eng, game.table, seen=seen)
        except GameError as exc:
            exc.game = game
            raise


def _check_version(game: Game, version: int | None, eng: engines.Engine) -> None:
    if game.status != Status.ACTIVE:
        raise Conflict(
            gettext("This game is over.")
            if game.is_over
            else gettext("This game has not started yet.")
        )
    if version is None:
        raise GameError(gettext("The form is missing the game's version; reload the page."))
    # Simultaneous turns (Out of Gears' programs): only a new turn makes a page stale.
    current = game.turn_version if eng.SIMULTANEOUS else game.version
    if version < current or version > game.version:
        raise Conflict(
            gettext("The game has moved on since this page was loaded; here it is as it is now.")
        )


def _apply(
    game: Game,
    seat: Seat,
    action: object,
    kind: str,
    eng: engines.Engine,
    seats: list[Seat] | None = None,
    *,
    seen: bool = False,
) -> Game:
    """One action of `seat` on the locked game, through the engine; `seats`: the game's seats
    as read with it under the lock (else they are read here, after the change); `seen`: see
    `submit_action`."""
    if not isinstance(action, dict):
        raise GameError(gettext("That is not an action."))
    if eng.needs_resolution(game.state):
        raise Conflict(gettext("Every program is in; the turn is being resolved."))
    if not eng.SIMULTANEOUS:
        to_act = eng.to_act(game.state)
        if seat.seat_id not in to_act:
            turn_seat = next(iter(to_act), None)
            names = seat_names(seats or game.seats.select_related("user", "replaced_user"))
            name = names.get(turn_seat) or gettext("another player")
            raise Conflict(gettext("It is %(name)s's turn.") % {"name": name})
    try:
        state = eng.apply(game.state, seat.seat_id, action)
    except IllegalMove as exc:
        raise GameError(refusal(exc)) from None
    _changed(game, eng, state, seat=seat, kind=kind, action=action, seats=seats, seen=seen)
    return game


def resolve_turn(game_id: int, turn: int) -> bool:
    """Out of Gears: run turn `turn` once every program is in. Idempotent: False if no-op."""
    with transaction.atomic():
        # With its seats: one statement (the resolution writes their to_act and tells them).
        game = Game.objects.locked(game_id, with_seats=True)
        if game is None:
            return False  # deleted since the task was queued: nothing to resolve
        if game.status != Status.ACTIVE or game.turn != turn:
            return False
        return _resolve(game, game.table)


def _resolve(game: Game, seats: list[Seat] | None = None) -> bool:
    """Resolve the locked game's turn if every program is in (O7–O15); `seats`: as read with
    the game under the lock (else read after the change)."""
    eng = engines.engine(game.kind)
    if not eng.needs_resolution(game.state):
        return False
    state = eng.resolve(game.state)
    _changed(game, eng, state, seat=None, kind=Move.Kind.RESOLVE, action=None, seats=seats)
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
