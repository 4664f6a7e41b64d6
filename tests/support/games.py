"""Games started through the one write path, and logged-in clients to play them."""

from __future__ import annotations

from django.test import Client

from games.actions import tables
from games.models import Game, Kind


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
