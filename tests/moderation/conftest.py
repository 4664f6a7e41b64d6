import pytest

from tests.support.games import client_for, start_geared
from tests.support.users import make_user


@pytest.fixture
def moderator(db, django_user_model):
    return make_user(django_user_model, "mod", is_staff=True, is_superuser=True)


@pytest.fixture
def mod_client(moderator):
    """The moderator's own browser: separate from `client`, which plays the players."""
    return client_for(moderator)


@pytest.fixture
def geared_game(alice, bob):
    return start_geared([alice, bob], public=True, target=1000, turn_seconds=86400)
