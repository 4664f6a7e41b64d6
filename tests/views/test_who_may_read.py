"""Issue 34.8: who may read a game is one rule (`access.may_read`), and every door agrees with
it: for a matrix of games (public or private, waiting, in play, watchable by their link or not,
an imported record) and of askers (a player, one a bot replaced, a suspended player, an invited
player, the importer, a stranger and a visitor with or without the link, a moderator), the
Python rule on the game as read (`may_read_game`), the page, the live check by session (its
own SQL, `sql.PollQuery`), the live check by the page's key and the API all say the same. And a
key stops answering once the right that issued it is gone (a visitor's, by a link that no
longer opens the game once it has started). The stream process: tests/live/test_rights.py."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.actions import deadlines, moderation, tables
from games.models import Game, Invitation, Seat, Status
from games.reads import access
from tests.support.api import api_client, token_for
from tests.support.games import client_for
from tests.support.users import make_user

pytestmark = pytest.mark.django_db

PERSONAS = ("alice", "bob", "erin", "gil", "dan", "ivy", "carol", "mod")


@pytest.fixture
def people(django_user_model) -> dict[str, User]:
    """alice hosts; bob and gil (suspended) play; erin played until a bot took her seat; dan is
    invited; ivy imported a record; carol is nobody to the games; mod is a moderator."""
    found = {name: make_user(django_user_model, name) for name in PERSONAS}
    found["mod"].is_staff = True
    found["mod"].save(update_fields=["is_staff"])
    return found


def _game(people, *, public: bool, watchable: bool, started: bool) -> Game:
    alice = people["alice"]
    spec = tables.NewGame(
        kind="geared", seat_count=4, public=public, watchable_by_link=watchable, target=1000
    )
    game = tables.create_game(alice, spec)
    for name in ("bob", "gil", "erin"):
        tables.join_game(people[name], game.pk, token=game.join_token)
    Invitation.objects.create(game=game, inviter=alice, user=people["dan"])
    if started:
        tables.start_game(alice, game.pk)
        deadlines.resign(people["erin"], game.pk)
    else:  # erin never played it: she left the table
        tables.leave_game(people["erin"], game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def games(people) -> dict[str, Game]:
    found = {
        "public table": _game(people, public=True, watchable=False, started=False),
        "public game": _game(people, public=True, watchable=False, started=True),
        "private table": _game(people, public=False, watchable=False, started=False),
        "private game, watchable by link": _game(
            people, public=False, watchable=True, started=True
        ),
        "private game": _game(people, public=False, watchable=False, started=True),
    }
    imported = _game(people, public=False, watchable=False, started=True)
    Game.objects.filter(pk=imported.pk).update(
        imported=True, creator=people["ivy"], status=Status.FINISHED
    )
    found["imported record"] = Game.objects.get(pk=imported.pk)
    moderation.suspend(people["mod"], people["gil"], "testing", timezone.now() + timedelta(days=1))
    return found


def _key_of(page) -> str:
    found = re.search(r'data-poll-key="([^"]+)"', page.content.decode())
    assert found, "a page shown without a poll key"
    return found.group(1)


def test_34_8_every_door_agrees_with_the_one_rule(people, games, redis_cache):
    disagreements = []
    for label, game in games.items():
        link = {"token": game.join_token}
        for who in (*PERSONAS, "visitor"):
            user = people.get(who)
            client = client_for(user) if user else Client()
            for token in (None, game.join_token):
                rule = access.may_read_game(Game.objects.with_table(game.pk), user, token)
                page = client.get(f"/games/{game.pk}/", link if token else {})
                asked = {"v": -1, **({"t": token} if token else {})}
                polled = client.get(f"/games/{game.pk}/poll/", asked)
                answers = {
                    "page": page.status_code == 200,
                    "poll by session": polled.status_code != 404,
                }
                if page.status_code == 200:  # the key the page handed out, alone
                    by_key = Client().get(f"/games/{game.pk}/poll/", {"v": -1, "k": _key_of(page)})
                    answers["poll by key"] = by_key.status_code != 404
                if user and not token:
                    api = api_client(token_for(user, scopes=("read",)))
                    answers["api"] = api.get(f"/api/v1/games/{game.pk}").status_code == 200
                wrong = {door for door, said in answers.items() if said != rule}
                if wrong:
                    disagreements.append((label, who, bool(token), rule, sorted(wrong)))
    assert disagreements == []


@pytest.mark.parametrize("cached", [False, True], ids=["no cache", "redis"])
def test_34_8_a_visitors_key_stops_answering_once_the_link_no_longer_opens_the_game(
    people, request, cached, django_capture_on_commit_callbacks
):
    """A private table not watchable by its link: a visitor by the link reads it while it
    waits for players; once it starts, their page's key answers 404, as their session does."""
    if cached:
        request.getfixturevalue("redis_cache")
    alice = people["alice"]
    spec = tables.NewGame(kind="geared", seat_count=2, watchable_by_link=False, target=1000)
    game = tables.create_game(alice, spec)
    visitor = Client()
    page = visitor.get(f"/games/{game.pk}/", {"token": game.join_token})
    assert page.status_code == 200
    key = _key_of(page)
    poll = f"/games/{game.pk}/poll/"
    assert visitor.get(poll, {"v": -1, "k": key}).status_code == 200  # changed: its version

    with django_capture_on_commit_callbacks(execute=True):  # the cache's copy, set at commit
        tables.join_game(people["bob"], game.pk, token=game.join_token)
        tables.start_game(alice, game.pk)
    for asked in ({"k": key}, {"k": key, "t": game.join_token}):
        assert visitor.get(poll, {"v": -1, **asked}).status_code == 404
    # The same for a logged-in stranger who came by the link, and the players read on.
    carol = client_for(people["carol"])
    assert carol.get(poll, {"v": -1, "t": game.join_token}).status_code == 404
    bob = client_for(people["bob"])
    assert Client().get(poll, {"v": -1, "k": _key_of(bob.get(f"/games/{game.pk}/"))}).status_code
    assert Seat.objects.filter(game=game).count() == 2


def test_34_8_an_invited_player_and_an_importer_read_by_the_live_check_too(people, games):
    """Two of the old copies' differences: the live check's query left out the invited and
    the importer, whom the page let in (their live check then answered 404)."""
    for who, label in (("dan", "private table"), ("ivy", "imported record")):
        game = games[label]
        client = client_for(people[who])
        assert client.get(f"/games/{game.pk}/").status_code == 200
        assert client.get(f"/games/{game.pk}/poll/", {"v": -1}).status_code != 404, who
