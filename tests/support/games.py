"""Games started through the one write path, logged-in clients to play them, games played on
(greedily, or to their end), and what a refused request must leave unchanged (`snapshot`)."""

from __future__ import annotations

import random

from django.test import Client

from games import engines
from games.actions import moves, tables
from games.engines.geared import engine as geared
from games.engines.geared.bots import greedy_bot
from games.engines.outofgears import engine as outofgears
from games.engines.outofgears.bots import greedy_bot as oog_greedy_bot
from games.models import Game, Kind, Move, Notification, Seat, Status


def start_geared(
    users,
    *,
    target: int = 300,
    turn_seconds: int = 0,
    bots: tuple[str, ...] = (),
    public: bool = False,
) -> Game:
    """A started Geared game: users[0] creates it, the others join with the link, then it
    starts. A test that must not see the game end by chance passes a high `target`."""
    creator, *others = users
    game = tables.create_game(
        creator,
        tables.NewGame(
            kind=Kind.GEARED,
            seat_count=len(users) + len(bots),
            target=target,
            turn_seconds=turn_seconds,
            bots=tuple(bots),
            public=public,
        ),
    )
    for user in others:
        tables.join_game(user, game.pk, token=game.join_token)
    tables.start_game(creator, game.pk)
    game.refresh_from_db()
    return game


def start_oog(
    users,
    *,
    robots=None,
    advanced: bool = False,
    turn_seconds: int = 0,
    bots: tuple[str, ...] = (),
    public: bool = False,
) -> Game:
    """A started Out of Gears game: users[0] creates it, the others join with the link;
    `robots` is one tuple of robot numbers per user (or None: the engine's choice)."""
    robots = robots or [()] * len(users)
    creator, *others = users
    game = tables.create_game(
        creator,
        tables.NewGame(
            kind=Kind.OUTOFGEARS,
            seat_count=len(users) + len(bots),
            advanced=advanced,
            turn_seconds=turn_seconds,
            bots=tuple(bots),
            public=public,
            robots=tuple(robots[0]),
        ),
    )
    for user, chosen in zip(others, robots[1:], strict=True):
        tables.join_game(user, game.pk, robots=tuple(chosen), token=game.join_token)
    tables.start_game(creator, game.pk)
    game.refresh_from_db()
    return game


def client_for(user) -> Client:
    """A browser of `user`'s own, logged in."""
    client = Client()
    client.force_login(user)
    # A session's first request stores the player's time zone in it (one user read and one
    # session write, once per session); make it now so query counts measure steady pages.
    client.get("/")
    return client


def seat_to_act(game: Game) -> Seat:
    """Geared: the seat whose turn it is now (the game row read again: `game` is refreshed)."""
    game.refresh_from_db()
    seat_id = geared.current_seat(game.state)
    return game.seats.select_related("user").get(position=int(seat_id))


def seat_of(game: Game, user) -> Seat:
    return game.seats.select_related("user").get(user=user)


def greedy_choice(game: Game, seat: Seat, salt: int = 0) -> dict:
    """What the greedy bot would play for this seat, from what the seat may see and do."""
    view = geared.view(game.state, seat.seat_id)
    legal = geared.legal_actions(game.state, seat.seat_id)
    return greedy_bot(view, legal, random.Random(f"{game.pk}:{game.version}:{salt}"))


def advance(game: Game, count: int) -> Game:
    """Play `count` greedy moves through moves.submit_action (people's seats only)."""
    for _ in range(count):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = seat_to_act(game)
        moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    game.refresh_from_db()
    return game


def greedy_program(game: Game, seat: Seat, salt: object = 0) -> dict:
    """What the greedy bot would program for this seat, from what the seat may see and do."""
    view = outofgears.view(game.state, seat.seat_id)
    legal = outofgears.legal_actions(game.state, seat.seat_id)
    return oog_greedy_bot(
        view, legal, random.Random(f"{game.pk}:{game.turn}:{seat.seat_id}:{salt}")
    )


def finished_geared(alice, bob, *, target: int = 300) -> Game:
    game = tables.create_game(
        alice, tables.NewGame(kind="geared", seat_count=2, target=target, public=False)
    )
    tables.join_game(bob, game.pk, token=game.join_token)
    tables.start_game(alice, game.pk)
    eng = engines.engine("geared")
    users = {alice.pk: alice, bob.pk: bob}
    rng = random.Random(7)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            break
        seat = Seat.objects.get(game=game, position=int(eng.current_seat(game.state)))
        view = eng.view(game.state, seat.seat_id)
        action = greedy_bot(view, eng.legal_actions(game.state, seat.seat_id), rng)
        moves.submit_action(users[seat.user_id], game.pk, game.version, action)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def finished_oog(first, *others) -> Game:
    """Out of Gears to the end, every person programming greedily: `first` against two greedy
    bots, or against `others` (who join by the link). Tasks queued on commit do not run inside
    a test's transaction, so the bots and the resolutions are driven as the outbox sweep does."""
    bots = () if others else ("greedy", "greedy")
    game = tables.create_game(
        first,
        tables.NewGame(kind="outofgears", seat_count=1 + len(others) + len(bots), bots=bots),
    )
    for other in others:
        tables.join_game(other, game.pk, token=game.join_token)
    tables.start_game(first, game.pk)
    for n in range(500):
        moves.catch_up(game.pk)
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            break
        for user in (first, *others):
            seat = game.seats.get(user=user)
            if seat.seat_id in engines.seats_to_act(game.kind, game.state):
                action = engines.bot_action(game.kind, "greedy", game.state, seat.seat_id, str(n))
                moves.submit_action(user, game.pk, game.version, action)
                game.refresh_from_db()
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    return game


def advance_to_turn_of(game: Game, user, most: int = 6) -> Game:
    """Play greedy moves (advance) until it is `user`'s turn: a move does not always end its
    player's turn (a rearrangement), so at most `most` of them, and the turn is asserted."""
    for _ in range(most):
        if seat_to_act(game).user_id == user.pk:
            break
        game = advance(game, 1)
    assert game.is_active and seat_to_act(game).user_id == user.pk
    return game


def snapshot(game: Game) -> tuple:
    """What a refused request (or a task that finds nothing to do) must leave unchanged: the
    game row, its state, its moves, its seats and the e-mails it owes."""
    game.refresh_from_db()
    return (
        game.version,
        game.turn,
        game.move_count,
        game.status,
        game.deadline,
        repr(game.state),
        Move.objects.filter(game=game).count(),
        Notification.objects.filter(game=game).count(),
        sorted(
            game.seats.values_list("user_id", "bot", "replaced_user_id", "missed_deadlines"),
            key=repr,
        ),
    )
