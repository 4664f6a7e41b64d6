import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.conftest import make_user


@pytest.fixture
def moderator(db, django_user_model):
    return make_user(django_user_model, "mod", is_staff=True, is_superuser=True)


@pytest.fixture
def mod_client(moderator):
    """The moderator's own browser: separate from `client`, which plays the players."""
    mod = Client()
    mod.force_login(moderator)
    mod.get("/")  # the session's first request stores the time zone in it: once per session
    return mod


def start_geared(creator, *others, turn_seconds=0) -> Game:
    game = services.create_game(
        creator,
        services.NewGame(
            kind="geared", seat_count=1 + len(others), public=True, turn_seconds=turn_seconds
        ),
    )
    for user in others:
        services.join_game(user, game.pk)
    services.start_game(creator, game.pk)
    game.refresh_from_db()
    return game


@pytest.fixture
def geared_game(alice, bob):
    return start_geared(alice, bob, turn_seconds=86400)
