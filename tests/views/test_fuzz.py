"""Every GET and POST endpoint of the site, fuzzed with hostile values for its parameters and
path tokens, by a visitor, a logged-in stranger and a seated player: never a server error, and
nothing stored changes (issue 13, point 3). Every POST endpoint also gets hostile bodies: forms
in other charsets and broken multipart, with the CSRF check on (issue 22, point 1); raw HTTP
against a real server is in test_raw_http.py.

Bounded for `make test` (profile "fuzz": a few examples per endpoint, well under a minute);
`GEARTABLE_FUZZ=deep` runs many more."""

from __future__ import annotations

import json
import os
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import tokens
from accounts.models import (
    TIME_ZONES,
    ApiToken,
    EmailSuppression,
    Follow,
    PushSubscription,
    User,
)
from games.actions import moderation, tables
from games.models import ChatMessage, Game, GameNote, Invitation, Kind, Move, Report, Seat
from tests.support.games import start_geared

pytestmark = pytest.mark.django_db

# make test runs the same examples every time (derandomize: a green run stays green in CI);
# GEARTABLE_FUZZ=deep explores at random, many more.
settings.register_profile(
    "fuzz",
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz-deep", parent=settings.get_profile("fuzz"), max_examples=1000, derandomize=False
)
PROFILE = settings.get_profile(
    "fuzz-deep" if os.environ.get("GEARTABLE_FUZZ") == "deep" else "fuzz"
)

# Values that broke or could break a view: NUL, digits int() refuses, huge numbers, deep JSON.
NASTY = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "\x00",
            "a\x00b",
            "²",
            "٣",
            "9" * 5000,
            "-1",
            "1.5",
            "[" * 5000,
            '{"type": "pass"}',
            "null",
            "é" * 40,
            "%00",
            "<script>",
            "../../etc/passwd",
        ]
    ),
    st.builds(lambda a, b: f"{a}\x00{b}", st.text(max_size=8), st.text(max_size=8)),
)
TOKEN = NASTY.filter(lambda s: s not in ("", ".", ".."))


def params(*names: str, **special):
    fields = {name: st.one_of(st.none(), special.get(name, NASTY)) for name in names}
    return st.fixed_dictionaries(fields).map(
        lambda d: {k: v for k, v in d.items() if v is not None}
    )


GAME_QUERY = params("token", "pick", "card", "target", "move", "to", "level")
# name: (method, who may send it, how the path is built, parameters)
ENDPOINTS = {
    "home": ("GET", "all", "plain", params("x")),
    "healthz": ("GET", "all", "plain", params("x")),
    "rules": ("GET", "all", "plain", params("x")),
    "rules_game": ("GET", "all", "slug", params("x")),
    "set_language": ("POST", "all", "plain", params("language", "next")),
    "lobby": ("GET", "all", "plain", params("x")),
    "create_game": (
        "POST",
        "stranger",
        "plain",
        params(
            "kind",
            "seat_count",
            "target",
            "turn_seconds",
            "bots",
            "bot_kind",
            "robots",
            "public",
            "advanced",
        ),
    ),
    "my_games": ("GET", "all", "plain", params("x")),
    "finished_games": ("GET", "all", "plain", params("page")),
    "game": ("GET", "all", "game", GAME_QUERY),
    "game_fragment": ("GET", "all", "game", GAME_QUERY),
    "game_poll": ("GET", "all", "game", params("v", "c", "t")),
    "game_move": (
        "POST",
        "player",
        "game",
        params("action", "version", "program", "robot-1-action", "robot-1-number"),
    ),
    "game_log": ("GET", "all", "game", params("token")),
    "game_note": ("POST", "stranger", "game", params("text", "token")),
    "next_game": ("GET", "all", "plain", params("from")),
    "game_replay": ("GET", "all", "game", params("step", "token")),
    "player": ("GET", "all", "token", params("x")),
    "bot_player": ("GET", "all", "token", params("x")),
    # Nobody of that name: a follow of no one is refused (issue 27.2).
    "player_follow": ("POST", "stranger", "token", params("x", "unfollow")),
    "game_record": ("GET", "all", "game", params("token")),
    "import_record": ("POST", "stranger", "plain", params("record")),
    "game_join": ("POST", "stranger", "game", params("robot", "token")),
    "game_leave": ("POST", "stranger", "game", params("x")),
    "game_start": ("POST", "stranger", "game", params("x")),
    "game_invite": ("POST", "stranger", "game", params("who")),
    "game_decline": ("POST", "stranger", "game", params("invitation", "token")),
    "game_resign": ("POST", "stranger", "game", params("x")),
    "game_rematch": ("POST", "stranger", "game", params("x")),
    "game_chat": ("POST", "stranger", "game", params("text")),
    "chat_report": ("POST", "stranger", "message", params("reason")),
    "accept_invitation": ("GET", "all", "token", params("x")),
    "decline_invitation": ("GET", "all", "token", params("x")),
    "profile": (
        "POST",
        "stranger",
        "plain",
        params(
            "display_name",
            "notify_turn",
            time_zone=NASTY.filter(lambda tz: tz not in TIME_ZONES),
        ),
    ),
    "unsubscribe": ("POST", "all", "token", params("List-Unsubscribe")),
    "vacation": ("POST", "stranger", "plain", params("action", "until")),
    "account_login": ("POST", "stranger", "plain", params("login", "password")),
    "manifest": ("GET", "all", "plain", params("x")),
    "service_worker": ("GET", "all", "plain", params("x")),
    "offline": ("GET", "all", "plain", params("x")),
    "push_subscribe": ("POST", "stranger", "plain", params("endpoint", "keys", "p256dh", "auth")),
    "push_unsubscribe": ("POST", "stranger", "plain", params("endpoint")),
    # Alice's device among the ids: a stranger must not remove it.
    "push_remove": ("POST", "stranger", "device", params("x")),
    # The profile's API tokens (issue 28.3); Alice's token among the ids.
    "token_create": ("POST", "stranger", "plain", params("name", "scopes", "days")),
    "token_revoke": ("POST", "stranger", "api_token", params("x")),
    # Marking an account a bot, for good (issue 28.4): never by a nasty form.
    "make_bot": ("POST", "stranger", "plain", params("owner", "password", "confirm")),
    "api_docs": ("GET", "all", "plain", params("x")),
}
# The token endpoints refuse the POST of a forged token just as the GET: fuzz both.
EXTRA = [("decline_invitation", "POST"), ("accept_invitation", "POST"), ("unsubscribe", "GET")]


@pytest.fixture
def world(alice, bob, carol, settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "BPublicKeyForTheFuzz", "private"
    device = PushSubscription.objects.create(
        user=alice, endpoint="https://fcm.googleapis.com/fcm/send/fuzz", p256dh="p", auth="a"
    )
    game = start_geared([alice, bob], target=1000)
    table = tables.create_game(alice, tables.NewGame(kind=Kind.OUTOFGEARS, seat_count=3))
    tables.invite(alice, table.pk, "dora@example.com")
    message = moderation.post_chat(bob, game.pk, "hello")
    api_token = tokens.create(alice, "fuzz", ["read"], 30).row
    clients = {"visitor": Client()}
    for name, user in (("stranger", carol), ("player", alice)):
        clients[name] = Client()
        clients[name].force_login(user)
    return {
        "games": [game.pk, table.pk, 999999],
        "devices": [device.pk, 999999],
        "api_tokens": [api_token.pk, 999999],
        "message": message,
        "clients": clients,
    }


def site_snapshot():
    return (
        list(Game.objects.order_by("pk").values_list("pk", "version", "status", "chat_seq")),
        [
            m.objects.count()
            for m in (Seat, Move, Invitation, ChatMessage, Report, GameNote, Follow, ApiToken)
        ],
        list(
            PushSubscription.objects.order_by("pk").values_list("pk", "user", "endpoint", "p256dh")
        ),
        EmailSuppression.objects.count(),
        list(
            User.objects.order_by("pk").values_list(
                "pk",
                "display_name",
                "time_zone",
                "notify_turn",
                "notify_reminder",
                "password",
                "away_until",
                "is_bot",
                "bot_owner",
            )
        ),
    )


def path_for(name: str, shape: str, world, data) -> str:
    if shape == "plain":
        return reverse(name)
    if shape == "slug":
        return reverse("rules") + quote(data.draw(NASTY), safe="") + "/"
    if shape == "token":
        base = {
            "accept_invitation": "/invitations/",
            "decline_invitation": "/invitations/",
            "unsubscribe": "/accounts/unsubscribe/",
            "player": "/players/",
            "player_follow": "/players/",
            "bot_player": "/bots/",
        }[name]
        tail = {"decline_invitation": "decline/", "player_follow": "follow/"}.get(name, "")
        return f"{base}{quote(data.draw(TOKEN), safe='')}/{tail}"
    if shape == "device":
        return reverse(name, args=[data.draw(st.sampled_from(world["devices"]))])
    if shape == "api_token":
        return reverse(name, args=[data.draw(st.sampled_from(world["api_tokens"]))])
    if shape == "message":
        message = world["message"]
        return reverse(name, args=[message.game_id, message.pk])
    return reverse(name, args=[data.draw(st.sampled_from(world["games"]))])


CASES = [(n, spec[0]) for n, spec in ENDPOINTS.items()] + EXTRA


@pytest.mark.parametrize(("name", "method"), CASES, ids=[f"{m} {n}" for n, m in CASES])
def test_no_input_makes_a_server_error_or_changes_anything(world, name, method):
    _method, who, shape, query = ENDPOINTS[name]
    senders = ["visitor", "stranger", "player"] if who == "all" else ["visitor", who]

    @PROFILE
    @given(data=st.data())
    def fuzz(data):
        before = site_snapshot()
        client = world["clients"][data.draw(st.sampled_from(senders))]
        path = path_for(name, shape, world, data)
        values = data.draw(query)
        response = client.get(path, values) if method == "GET" else client.post(path, values)
        assert response.status_code < 500, (path, values)
        assert site_snapshot() == before, (path, values)

    fuzz()


def _names(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            # The API (namespace api-1) is fuzzed over its own schema: tests/api/test_schema.py.
            if p.namespace not in ("admin", "api-1") and "allauth" not in str(p.urlconf_name):
                yield from _names(p.url_patterns)
        elif isinstance(p, URLPattern) and p.name:
            yield p.name


def test_every_endpoint_of_ours_is_fuzzed():
    assert set(_names(get_resolver().url_patterns)) <= set(ENDPOINTS)


# --- hostile bodies, with the CSRF check on (issue 22, point 1) ----------------------------------

CSRF = "a" * 32  # a well-formed secret in the cookie and the form: the CSRF check reads the form
CHARSETS = ["latin-1", "utf-16", "koi8-r", "shift_jis", "ascii", "cp1252", "utf-8", "nonsense"]
BOUNDARIES = st.sampled_from(["b", "", "x" * 300, "a b", "\x7f", "--", "b;c", '"q"'])
PART_NAMES = st.one_of(
    st.sampled_from(["record", "file", "text", "action", "csrfmiddlewaretoken"]),
    st.sampled_from(["a\x00b", "", '"', "\r\n", "é" * 20]),
    st.text(max_size=10),
)


@st.composite
def urlencoded_body(draw):
    charset = draw(st.sampled_from(CHARSETS))
    fields = draw(st.lists(st.tuples(PART_NAMES, NASTY), max_size=5))
    raw = "&".join(f"{quote(k)}={quote(v)}" for k, v in [("csrfmiddlewaretoken", CSRF), *fields])
    if draw(st.booleans()):  # raw bytes of the charset, not percent-escaped
        raw = raw + "&x=" + draw(st.text(max_size=20))
    body = raw.encode(charset if charset != "nonsense" else "utf-8", errors="replace")
    return f"application/x-www-form-urlencoded; charset={charset}", body


@st.composite
def multipart_body(draw):
    boundary = draw(BOUNDARIES)
    parts = [(b"csrfmiddlewaretoken", None, CSRF.encode())]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(PART_NAMES).encode("utf-8", errors="replace")
        filename = draw(st.one_of(st.none(), st.sampled_from(["r.json", "a\x00b", "", "../x"])))
        size = draw(st.sampled_from([0, 10, 70_000, 600_000]))  # past the 64 kB form limit
        value = draw(st.sampled_from([b"x", b"\x00", b"{}", b"\xff\xfe"])) * max(size, 1)
        parts.append((name, filename, value))
    body = b""
    for name, filename, value in parts:
        disposition = b'Content-Disposition: form-data; name="' + name + b'"'
        if filename is not None:
            disposition += b'; filename="' + filename.encode() + b'"'
        body += b"--" + boundary.encode() + b"\r\n" + disposition + b"\r\n\r\n" + value + b"\r\n"
    if draw(st.booleans()):
        body += b"--" + boundary.encode() + b"--\r\n"
    content_type = draw(
        st.sampled_from(
            [
                f"multipart/form-data; boundary={boundary}",
                f"multipart/form-data; boundary={boundary}; charset=latin-1",
                "multipart/form-data",
                f"multipart/mixed; boundary={boundary}",
            ]
        )
    )
    return content_type, body


BODIES = st.one_of(urlencoded_body(), multipart_body())
POSTS = [n for n, m in CASES if m == "POST"]


@pytest.mark.parametrize("name", POSTS)
def test_no_body_makes_a_server_error_or_changes_anything(world, name, alice, carol):
    _method, who, shape, _query = ENDPOINTS[name]
    clients = {}
    for persona, user in (("visitor", None), ("stranger", carol), ("player", alice)):
        clients[persona] = Client(enforce_csrf_checks=True, raise_request_exception=False)
        clients[persona].cookies["csrftoken"] = CSRF
        if user is not None:
            clients[persona].force_login(user)

    @PROFILE
    @given(data=st.data())
    def fuzz(data):
        before = site_snapshot()
        client = clients[data.draw(st.sampled_from(sorted(clients)))]
        path = path_for(name, shape, world, data)
        content_type, body = data.draw(BODIES)
        response = client.generic("POST", path, body, content_type=content_type)
        assert response.status_code < 500, (path, content_type, body[:200])
        assert site_snapshot() == before, (path, content_type, body[:200])

    fuzz()


# --- the API's bodies: JSON in UTF-8 only, whatever arrives (issue 34.4) ------------------------
# Every POST of the API, with a player's token (so a body reaches the views), gets JSON with
# lone surrogates and NULs, the site's hostile forms and multipart bodies, text/plain, other
# charsets, huge and NUL-laden bodies: never a 5xx, a refusal in the API's shape, and a
# refusal changes nothing. (tests/api/test_schema.py fuzzes the calls' well-typed values.)

API_POSTS = [
    "/api/v1/games",
    *(
        f"/api/v1/games/{{game}}/{tail}"
        for tail in ("chat", "actions", "join", "start", "resign", "leave", "rematch", "invite")
    ),
]
ODD_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "a\x00b", "\ud83d\ude00", "é" * 30, ""]),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "text": ODD_TEXT,
        "version": st.integers(),
        "action": JSON_VALUES,
        "kind": ODD_TEXT,
        "seat_count": st.integers(),
        "who": ODD_TEXT,
    },
)
JSON_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF8",
]
OTHER_TYPES = [
    "application/json; charset=latin-1",
    "application/json; charset=utf-16",
    "text/plain",
    "text/plain; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=b",
    "application/xml",
    "application/vnd.api+json",
    "",
]


@st.composite
def json_body(draw):
    value = draw(st.one_of(FIELDS, JSON_VALUES))
    if draw(st.booleans()):  # \ud800 escaped, as json.dumps writes it
        raw = json.dumps(value).encode()
    else:  # the characters as they are: a lone surrogate as raw (invalid) UTF-8 bytes
        raw = json.dumps(value, ensure_ascii=False).encode("utf-8", errors="surrogatepass")
    return draw(st.sampled_from(JSON_TYPES + OTHER_TYPES)), raw


@st.composite
def odd_body(draw):
    content_type = draw(st.sampled_from(JSON_TYPES + OTHER_TYPES))
    raw = draw(
        st.one_of(
            st.binary(max_size=200),
            st.sampled_from(
                [
                    b'{"text": "\x00"}',
                    b"\x00" * 5000,
                    b"[" * 60_000,  # deeper than json.loads can go
                    b'{"version": 1' + b"1" * 5000 + b"}",  # longer than int() reads
                    b'{"text": "a"}' + b" " * 70_000,  # past the 64 kB a call may send
                    '{"text": "é"}'.encode("latin-1"),
                    '{"text": "é"}'.encode("utf-16"),
                    b"\xef\xbb\xbf{}",
                    b"text=hello",
                ]
            ),
        )
    )
    return content_type, raw


API_BODIES = st.one_of(json_body(), odd_body(), urlencoded_body(), multipart_body())


@pytest.mark.parametrize("path", API_POSTS)
def test_34_4_no_body_makes_an_api_server_error_or_changes_anything(world, alice, settings, path):
    settings.GEARTABLE_API_RATE = 100_000  # every example reaches its view
    token = tokens.create(alice, "fuzz bodies", ["read", "play"], 30).token
    client = Client(headers={"Authorization": f"Bearer {token}"})

    @PROFILE
    @given(data=st.data())
    def fuzz(data):
        before = site_snapshot()
        where = path.format(game=data.draw(st.sampled_from(world["games"])))
        content_type, body = data.draw(API_BODIES)
        response = client.generic("POST", where, body, content_type=content_type)
        said = (where, content_type, body[:200])
        assert response.status_code < 500, said
        if response.status_code >= 400:
            assert response["Content-Type"].startswith("application/json"), said
            assert response.json()["detail"].endswith("."), said
            assert site_snapshot() == before, said

    fuzz()
