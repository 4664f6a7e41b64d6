"""Issue 34.6: who may act at a table is decided at one door of the write path
(`base.acting`), which no action can skip. A bot account acts only through the API with a
`bot` token: its session, on every action door of the pages, is refused and changes nothing
(`/games/<id>/leave/` once let it abort a table). tests/test_code_shape.py checks that every
action of the write path is behind that door."""

from __future__ import annotations

import html
import inspect

import pytest
from django.urls import reverse

from accounts import bots
from accounts.models import BOT_BY_HAND, User
from games import errors
from games.actions import tables
from games.models import ChatMessage, Game, Invitation, Report, Seat, Status
from tests.support.code import action_modules
from tests.support.games import client_for
from tests.support.users import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(django_user_model) -> User:
    make_user(django_user_model, "fay", display_name="Fay")
    account = make_user(django_user_model, "robo", display_name="Robo")
    return bots.mark_as_bot(account, "fay", PASSWORD)


def _by_token(user: User) -> User:
    """The account as the API's `bot` token hands it to the write path (accounts/tokens.py)."""
    user.plays_by_bot_token = True
    return user


def _tables(alice: User, robo: User) -> dict[str, Game]:
    """Where each door would let a person act: an open public table of alice's (join), one with
    robo seated (leave), robo's own full table (start, invite), a game in play with robo
    (move, chat, report, resign), one over (rematch)."""
    new = tables.NewGame
    joinable = tables.create_game(alice, new(kind="geared", seat_count=3, public=True))
    seated = tables.create_game(alice, new(kind="geared", seat_count=3))
    tables.join_game(_by_token(robo), seated.pk, token=seated.join_token)
    own = tables.create_game(_by_token(robo), new(kind="geared", seat_count=3, bots=("greedy",)))
    playing, over = (
        tables.create_game(alice, new(kind="geared", seat_count=2, target=1000)) for _ in range(2)
    )
    for game in (playing, over):
        tables.join_game(_by_token(robo), game.pk, token=game.join_token)
        tables.start_game(alice, game.pk)
    Game.objects.filter(pk=over.pk).update(status=Status.FINISHED)
    ChatMessage.objects.post(playing, alice, "hello robo")
    invited = tables.create_game(alice, new(kind="geared", seat_count=3))
    tables.invite(alice, invited.pk, robo.email)
    robo.plays_by_bot_token = False
    return {
        "joinable": joinable,
        "seated": seated,
        "own": own,
        "playing": playing,
        "over": over,
        "invited": invited,
    }


SEAT_FIELDS = ("id", "game", "user", "bot", "position", "robots", "to_act", "replaced_user")


def _everything() -> tuple:
    """What an action could change: the games, seats, invitations, chat and reports."""
    return (
        list(Game.objects.order_by("pk").values()),
        # A page drawn in answer marks what its player has seen: not a change of the table.
        list(Seat.objects.order_by("pk").values(*SEAT_FIELDS)),
        list(Invitation.objects.order_by("pk").values()),
        list(ChatMessage.objects.order_by("pk").values()),
        list(Report.objects.order_by("pk").values()),
    )


NEW_TABLE = {"kind": "geared", "seat_count": 3, "target": 300, "turn_seconds": 0, "bots": 0}
NEW_TABLE["bot_kind"] = "greedy"

# Every action door of the pages: (name, the table it acts on, the URL's arguments, the POST).
DOORS = [
    ("create_game", None, (), NEW_TABLE),
    ("game_join", "joinable", ("game",), {}),
    ("game_leave", "seated", ("game",), {}),
    ("game_start", "own", ("game",), {}),
    ("game_invite", "own", ("game",), {"who": "alice"}),
    ("game_resign", "playing", ("game",), {}),
    ("game_rematch", "over", ("game",), {}),
    ("game_move", "playing", ("game",), {"action": "{}", "version": "0"}),
    ("game_chat", "playing", ("game",), {"text": "hi"}),
    ("chat_report", "playing", ("game", "message"), {"reason": "rude"}),
    ("accept_invitation", "invited", ("invitation",), {}),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("name", "table", "args", "data"), DOORS, ids=[d[0] for d in DOORS])
def test_34_6_a_bot_accounts_session_is_refused_at_every_action_door(
    alice, robo, name, table, args, data, htmx
):
    games = _tables(alice, robo)
    game = games.get(table)
    values = {
        "game": game and game.pk,
        "message": game and ChatMessage.objects.filter(game=game).values_list("pk").first(),
        "invitation": game and Invitation.objects.filter(game=game).values_list("token").first(),
    }
    url = reverse(name, args=[v[0] if isinstance(v, tuple) else v for v in map(values.get, args)])
    before = _everything()
    client = client_for(robo)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(url, data, headers=headers)
    if response.status_code == 302:  # back to the page, which says why
        response = client.get(response["Location"])
    assert _everything() == before, f"{name} changed something for a bot's session"
    # The refusal (403), the page it leads back to, or the new table's form with it (400).
    assert response.status_code in (200, 400, 403), response.status_code
    assert BOT_BY_HAND in html.unescape(response.content.decode()), name


def test_34_6_every_action_of_the_write_path_refuses_a_bot_before_reading_anything(
    robo, django_assert_num_queries
):
    """Behaviourally: each action of the write path (`base.acting`), handed a bot account
    that did not come through a `bot` token, is refused before a single query, whatever its
    other arguments."""
    actions = [
        fn
        for module in action_modules()
        for _name, fn in inspect.getmembers(module, inspect.isfunction)
        if getattr(fn, "acting", False)
    ]
    assert len(actions) >= 11, [fn.__name__ for fn in actions]
    for action in actions:
        params = list(inspect.signature(action).parameters.values())[1:]
        args = [0 if "id" in p.name else "" for p in params if p.default is p.empty]
        with django_assert_num_queries(0), pytest.raises(errors.Forbidden) as refused:
            action(robo, *args)
        assert refused.value.message == BOT_BY_HAND, action.__name__
