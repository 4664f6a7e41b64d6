"""Issue 28.4: bot accounts. Marked for good by their owner (login, CSRF, the owner's password);
read-only on the pages, played through the API with a `bot` token only; seated from the lobby
by an invitation their program accepts; rated apart from people; sent no e-mail or push."""

from __future__ import annotations

import random
import re
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import bots, models
from accounts.models import User
from games import engines
from games.actions import deadlines, moves, rating_changes, tables
from games.engines.geared.bots import greedy_bot
from games.models import (
    ChatMessage,
    Game,
    Invitation,
    Kind,
    Notification,
    Rating,
    RatingChange,
    Status,
)
from games.notifications import push as webpush
from games.notifications import queueing as notifications
from tests.support.api import API, api_client, token_for
from tests.support.games import client_for, start_geared
from tests.support.pages import count_queries, text
from tests.support.users import PASSWORD, make_user
from tests.views.helpers import payloads, post_move

pytestmark = pytest.mark.django_db

BOT_URL = "/accounts/profile/bot/"
CSRF = "a" * 32  # a well-formed secret, in the cookie and the form


@pytest.fixture
def fay(django_user_model):
    return make_user(django_user_model, "fay", display_name="Fay")


@pytest.fixture
def robo(django_user_model, fay):
    """A bot account of fay's, marked through the one function the profile's form calls."""
    account = make_user(django_user_model, "robo", display_name="Robo")
    return bots.mark_as_bot(account, "fay", PASSWORD)


def _bot_form(owner="fay", password=PASSWORD, confirm=True) -> dict:
    data = {"owner": owner, "password": password}
    if confirm:
        data["confirm"] = "on"
    return data


def _csrf_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _csrf(client: Client) -> str:
    page = text(client.get(reverse("profile")))
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_28_4_marking_an_account_a_bot_needs_login_csrf_and_the_owner_and_is_for_good(
    django_user_model, fay, alice, bob
):
    account = make_user(django_user_model, "newbot")
    # Not logged in: to the log-in page; without the CSRF token: 403. Nothing changes.
    assert Client().post(BOT_URL, _bot_form()).status_code == 302
    client = _csrf_client(account)
    assert client.post(BOT_URL, _bot_form()).status_code == 403
    token = _csrf(client)
    refused = {
        "no tick": (_bot_form(confirm=False), 400, "Tick the box"),
        "wrong password": (_bot_form(password="guess"), 403, "not the password of fay"),
        "no such owner": (_bot_form(owner="nobody"), 400, "Name the player"),
        "itself": (_bot_form(owner="newbot"), 400, "Name the player"),
    }
    for name, (data, status, sentence) in refused.items():
        response = client.post(BOT_URL, {**data, "csrfmiddlewaretoken": token})
        assert response.status_code == status, name
        assert sentence in text(response), name
    account.refresh_from_db()
    assert not account.is_bot and account.bot_owner_id is None

    profile = text(client.get(reverse("profile")))
    assert "Make this account a bot" in profile and "cannot be undone" in profile
    assert 'value="bot"' not in profile  # a person's token form offers no `bot`

    response = client.post(BOT_URL, {**_bot_form(), "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    account.refresh_from_db()
    assert account.is_bot and account.bot_owner_id == "fay" and account.bot_since
    profile = text(client.get(reverse("profile")))
    assert "This account is a bot by fay" in profile and 'id="bot-form"' not in profile
    assert 'value="bot"' in profile and 'value="play"' not in profile
    # Its owner finds it on their own profile, linked to its page; nobody else does.
    owner = text(client_for(fay).get(reverse("profile")))
    assert re.search(r'id="my-bots">Your bot account: <a href="/players/newbot/">newbot</a>', owner)
    assert 'id="my-bots"' not in text(client_for(bob).get(reverse("profile")))

    # For good: a second mark (another owner) is refused and changes nothing.
    again = client.post(BOT_URL, {**_bot_form(owner="bob"), "csrfmiddlewaretoken": token})
    assert again.status_code == 409 and "already a bot" in text(again)
    account.refresh_from_db()
    assert account.is_bot and account.bot_owner_id == "fay"
    # A bot cannot own a bot.
    other = make_user(django_user_model, "second")
    with pytest.raises(bots.BotError, match="not a bot"):
        bots.mark_as_bot(other, "newbot", PASSWORD)

    # An account that has sat at a table stays a person's (as lichess refuses one that played).
    start_geared([alice, bob])
    player = _csrf_client(alice)
    assert "Make this account a bot" not in text(player.get(reverse("profile")))
    response = player.post(BOT_URL, {**_bot_form(), "csrfmiddlewaretoken": _csrf(player)})
    assert response.status_code == 403 and "has sat at a table" in text(response)
    alice.refresh_from_db()
    assert not alice.is_bot

    # A person may not make a `bot` token; a bot account may not make a `play` one.
    with pytest.raises(Exception, match="read, play, or both"):
        token_for(bob, scopes=("bot",))
    with pytest.raises(Exception, match="bot \\(play as this bot\\), or read"):
        token_for(account, scopes=("play",))


LOCKED_AT_LOG_IN = "Too many failed login attempts"


def _log_in(login: str, password: str, address: str = "198.51.100.1") -> str:
    page = Client(REMOTE_ADDR=address).post(
        reverse("account_login"), {"login": login, "password": password}
    )
    return text(page) if page.status_code == 200 else f"redirected to {page.url}"


def _try_owner(account, password: str, address: str):
    """The bot form of `account` (logged in, its own address), naming fay with `password`."""
    client = Client(REMOTE_ADDR=address)
    client.force_login(account)
    return client.post(BOT_URL, _bot_form(password=password))


def test_34_2_wrong_owner_passwords_from_any_account_count_against_the_owners_log_in_lock(
    django_user_model, fay
):
    """Three new accounts, each from an address of its own, share fay's five tries: then the
    form refuses even fay's right password, and so does fay's own log-in page."""
    guessers = [make_user(django_user_model, f"guesser{i}") for i in range(3)]
    tries = [guessers[0], guessers[0], guessers[1], guessers[1], guessers[2]]
    for i, account in enumerate(tries):
        answer = _try_owner(account, "wrong", f"203.0.113.{i}")
        assert answer.status_code == 403 and "not the password of fay" in text(answer)
    refused = _try_owner(guessers[2], PASSWORD, "203.0.113.9")
    assert refused.status_code == 429 and bots.LOCKED in text(refused)
    assert not User.objects.filter(is_bot=True).exists()
    # fay's log-in, by username or by e-mail address, from anywhere: the same lock.
    assert LOCKED_AT_LOG_IN in _log_in("fay", PASSWORD)
    assert LOCKED_AT_LOG_IN in _log_in("fay@example.com", PASSWORD, "198.51.100.2")
    # Another player's lock is their own.
    assert LOCKED_AT_LOG_IN not in _log_in("guesser0", PASSWORD)


def test_34_2_failed_log_ins_lock_the_bot_forms_owner_password_too(django_user_model, fay):
    for i in range(5):  # by e-mail address and by username: one account, one lock
        _log_in("fay@example.com" if i % 2 else "FAY", "wrong", f"198.51.100.{i}")
    assert LOCKED_AT_LOG_IN in _log_in("fay", PASSWORD)
    account = make_user(django_user_model, "newbot")
    refused = _try_owner(account, PASSWORD, "203.0.113.1")
    assert refused.status_code == 429 and bots.LOCKED in text(refused)
    account.refresh_from_db()
    assert not account.is_bot
    # A right password costs no try, at the log-in as in the form: before the lock, fay's own
    # log-ins and proofs come and go without using up her tries.
    cache.clear()
    for _ in range(6):
        assert "redirected" in _log_in("fay", PASSWORD)
    assert bots.mark_as_bot(account, "fay", PASSWORD).is_bot


def test_34_2_many_wrong_owner_passwords_at_once_get_at_most_the_locks_checked(
    live_server, django_user_model, fay, monkeypatch
):
    """Twenty bot forms posted at once, by four accounts, against a live (threaded) server: the
    count comes first, so at most the lock's five passwords of fay's are checked; the others
    are refused unread."""
    checked = []
    real = User.check_password

    def counted(user, raw):
        if user.pk == fay.pk:
            checked.append(raw)
        return real(user, raw)

    monkeypatch.setattr(User, "check_password", counted)
    sessions = []
    for i in range(4):
        client = Client()
        client.force_login(make_user(django_user_model, f"racer{i}"))
        sessions.append(client.cookies["sessionid"].value)
    start = threading.Barrier(20)

    def post(n: int) -> int:
        body = urlencode({**_bot_form(password=f"guess{n}"), "csrfmiddlewaretoken": CSRF})
        request = urllib.request.Request(  # noqa: S310 (our live server, on loopback)
            live_server.url + BOT_URL,
            data=body.encode(),
            headers={
                "Cookie": f"sessionid={sessions[n % 4]}; csrftoken={CSRF}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        start.wait(timeout=60)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 (loopback)
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code

    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(post, range(20)))
    assert set(statuses) <= {403, 429}, statuses
    assert 1 <= len(checked) <= 5, len(checked)
    assert statuses.count(403) == len(checked)  # each checked one is a wrong password's 403
    assert not User.objects.filter(is_bot=True).exists()


def _seat_bot(host: User, bot: User, **options) -> Game:
    """A table of `host`'s, `bot` invited by username from the lobby's new-table form, then
    joined by the bot's own program through the API: the way a bot is seated."""
    client = client_for(host)
    form = {"kind": Kind.GEARED, "seat_count": 2, "turn_seconds": 0, "bots": 0}
    form.update(bot_kind="greedy", target=1000, watchable_by_link="on", invite=[bot.username])
    form.update(options)
    response = client.post(reverse("create_game"), form)
    assert response.status_code == 302, text(response)
    game = Game.objects.filter(creator=host).latest("pk")
    api = api_client(token_for(bot, scopes=("bot",)))
    waiting = api.get(f"{API}/invitations").json()
    assert [(i["game"]["id"], i["inviter"]) for i in waiting] == [(game.pk, host.username)]
    joined = api.post(f"{API}/games/{game.pk}/join", {}, content_type="application/json")
    assert joined.status_code == 200, joined.json()
    return game


def test_28_4_a_host_seats_a_bot_from_the_lobby_and_the_bot_is_sent_no_email(alice, fay, robo):
    game = _seat_bot(alice, robo)
    invitation = Invitation.objects.get(game=game, user=robo)
    assert invitation.accepted is not None
    assert invitation.state == Invitation.State.SKIPPED and "bot account" in invitation.error
    assert not [m for m in mail.outbox if robo.email in m.to]
    # The table and, once started, the game show whose bot it is.
    table = text(client_for(alice).get(game.get_absolute_url()))
    assert "(a bot by fay)" in table
    tables.start_game(alice, game.pk)
    page = text(client_for(alice).get(game.get_absolute_url()))
    assert "(a bot by fay)" in page
    player = text(Client().get(reverse("player", args=["robo"])))
    assert "a bot by" in player and 'href="/players/fay/"' in player


def _play(game: Game, users: dict[str, User], count: int = 1) -> Game:
    """`count` greedy moves of the people and bot accounts to act, through the write path; a
    bot account acts as its `bot` token lets it (the API's authentication marks it so)."""
    for _ in range(count):
        game.refresh_from_db()
        if not game.is_active:
            break
        moves.catch_up(game.pk)  # the site's own bots, if any
        game.refresh_from_db()
        eng = engines.engine(game.kind)
        seat_id = next(iter(eng.to_act(game.state)), None)
        user = users.get(seat_id)
        if user is None:
            continue
        user.plays_by_bot_token = user.is_bot
        view, legal = eng.view(game.state, seat_id), eng.legal_actions(game.state, seat_id)
        action = greedy_bot(view, legal, random.Random(f"{game.pk}:{game.version}"))
        moves.submit_action(user, game.pk, game.version, action)
    game.refresh_from_db()
    return game


def _users_by_seat(game: Game) -> dict[str, User]:
    return {s.seat_id: s.user for s in game.seats.select_related("user") if s.user_id}


def test_28_4_a_bot_plays_through_the_api_with_a_bot_token_and_never_from_the_pages(
    django_user_model, alice, fay, robo
):
    game = _seat_bot(alice, robo)
    tables.start_game(alice, game.pk)
    game.refresh_from_db()
    users = _users_by_seat(game)
    bot_seat = next(s for s, u in users.items() if u == robo)
    if bot_seat not in engines.engine(game.kind).to_act(game.state):
        game = _play(game, users)  # alice's move: now the bot's turn
    assert bot_seat in engines.engine(game.kind).to_act(game.state)
    before = (game.version, game.move_count)

    # The pages: read-only (no move offered), and a move POSTed anyway is a 403.
    page_client = client_for(robo)
    page = text(page_client.get(game.get_absolute_url()))
    assert "This is a bot account: its page is read-only" in page
    assert payloads(page) == []
    assert "Resign…" not in page  # resigning, too, is its program's (the API's)
    legal = engines.engine(game.kind).legal_actions(game.state, bot_seat)
    refused = post_move(page_client, game, legal[0], game.version, htmx=True)
    assert refused.status_code == 403 and models.BOT_BY_HAND in text(refused)
    chat = page_client.post(
        reverse("game_chat", args=[game.pk]), {"text": "hi"}, HTTP_HX_REQUEST="true"
    )
    assert chat.status_code == 403 and models.BOT_BY_HAND in text(chat)
    assert not ChatMessage.objects.filter(game=game).exists()

    # A token without `bot` (read only, or a `play` one made before the account was a bot).
    before_mark = make_user(django_user_model, "robo2")
    old_play = token_for(before_mark, scopes=("read", "play"))
    bots.mark_as_bot(before_mark, "fay", PASSWORD)
    assert api_client(old_play).get(f"{API}/me").json()["bot"] is True
    reader = api_client(token_for(robo, scopes=("read",)))
    seen = reader.get(f"{API}/games/{game.pk}").json()
    assert seen["your_turn"] is True
    body = {"version": seen["version"], "action": legal[0]}
    refused = reader.post(f"{API}/games/{game.pk}/actions", body, content_type="application/json")
    assert refused.status_code == 403 and "bot" in refused.json()["detail"]
    game.refresh_from_db()
    assert (game.version, game.move_count) == before  # nothing changed by any refusal

    # The `bot` token plays; what it reads is the seat's view, nothing more (G19).
    api = api_client(token_for(robo, scopes=("bot",)))
    me = api.get(f"{API}/me").json()
    assert (me["bot"], me["bot_owner"], me["token"]["scopes"]) == (True, "fay", ["bot"])
    seen = api.get(f"{API}/games/{game.pk}").json()
    others = {c for s, hand in game.state["hands"].items() if s != bot_seat for c in hand}
    shown = {c["id"] for c in seen["view"]["hand"]}
    assert shown == set(game.state["hands"][bot_seat]) and not shown & others
    assert str(game.seed) not in str(seen) and "draw" not in seen["view"]
    legal = api.get(f"{API}/games/{game.pk}/legal").json()
    body = {"version": legal["version"], "action": legal["actions"][0]}
    played = api.post(f"{API}/games/{game.pk}/actions", body, content_type="application/json")
    assert played.status_code == 200, played.json()
    game.refresh_from_db()
    assert game.move_count == before[1] + 1


def test_28_4_a_bot_seat_at_a_deadline_is_any_seat_and_is_sent_no_turn_email(alice, fay, robo):
    game = _seat_bot(alice, robo, turn_seconds=86400)
    tables.start_game(alice, game.pk)
    game.refresh_from_db()
    users = _users_by_seat(game)
    bot_seat = next(s for s, u in users.items() if u == robo)
    if bot_seat not in engines.engine(game.kind).to_act(game.state):
        game = _play(game, users)
    # Its turn came: no "your turn" e-mail, push or row for it (no person reads it).
    assert not Notification.objects.filter(user=robo).exists()
    seat = game.seats.get(user=robo)
    assert seat.to_act
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + timedelta(seconds=1))
    seat.refresh_from_db()
    game.refresh_from_db()
    assert seat.missed_deadlines == 1 and not seat.to_act  # played for it, as for anyone
    assert not Notification.objects.filter(user=robo).exists()
    assert not [m for m in mail.outbox if robo.email in m.to]


def test_28_4_a_game_with_a_bot_account_moves_only_the_bots_rating(alice, bob, fay, robo):
    # A rating alice already has, and the greedy bot's: neither moves in a game with robo.
    finished = start_geared([alice, bob])
    finished = _play(finished, _users_by_seat(finished), 3000)
    assert finished.status == Status.FINISHED
    alice_before = Rating.objects.get(kind="geared", user=alice)
    game = _seat_bot(alice, robo, seat_count=3, bots=1, target=300)
    tables.start_game(alice, game.pk)
    greedy_before = Rating.objects.filter(kind="geared", bot="greedy").first()
    game = _play(Game.objects.get(pk=game.pk), _users_by_seat(game), 3000)
    assert game.status == Status.FINISHED
    changes = RatingChange.objects.filter(game=game)
    assert [c.rating.user_id for c in changes] == [robo.pk]
    bot_rating = Rating.objects.get(kind="geared", user=robo)
    assert bot_rating.games == 1 and bot_rating.sigma < rating_changes.MODEL.rating().sigma
    alice_after = Rating.objects.get(kind="geared", user=alice)
    assert (alice_after.mu, alice_after.sigma, alice_after.games) == (
        alice_before.mu,
        alice_before.sigma,
        alice_before.games,
    )
    greedy_after = Rating.objects.filter(kind="geared", bot="greedy").first()
    assert greedy_after == greedy_before and (
        greedy_after is None or greedy_after.mu == greedy_before.mu
    )
    page = text(Client().get(reverse("player", args=["robo"])))
    assert "Bot rating" in page and "never the ratings of the people it plays" in page
    assert "Bot rating" not in text(Client().get(reverse("player", args=["alice"])))


def test_28_4_a_bot_account_is_never_mailed_or_pushed(robo, alice):
    for kind in Notification.Kind.values:
        assert not notifications.may_mail(robo, kind)
    assert not webpush.may_push(robo, "invitation")
    assert notifications.may_mail(alice, Notification.Kind.YOUR_TURN)


def test_28_4_whose_bot_it_is_costs_no_query(alice, bob, fay, robo):
    """ "(a bot by fay)" is read from the bot's own row (its owner kept by username): the game
    page, its fragment and My games cost what they cost with a person in the bot's seat."""
    with_bot = _seat_bot(alice, robo)
    tables.start_game(alice, with_bot.pk)
    with_person = start_geared([alice, bob], target=1000)
    client = client_for(alice)
    costs = [
        [
            count_queries(client, game.get_absolute_url()),
            count_queries(client, reverse("game_fragment", args=[game.pk])),
        ]
        for game in (with_bot, with_person)
    ]
    assert costs[0] == costs[1]
    my_games = text(client.get(reverse("my_games")))
    assert "(a bot by fay)" in my_games


def test_28_4_a_bot_account_takes_no_vacation(robo, alice):
    """A bot's program being down must not hold people's games: its seat is played for it at
    a deadline, so it has no vacation box, and a vacation POSTed anyway changes nothing."""
    client = client_for(robo)
    assert 'aria-labelledby="vacation-title"' not in text(client.get(reverse("profile")))
    until = (timezone.localdate() + timedelta(days=3)).isoformat()
    refused = client.post(reverse("vacation"), {"action": "set", "until": until})
    assert refused.status_code == 403 and "takes no vacation" in text(refused)
    robo.refresh_from_db()
    assert not robo.is_away
    assert 'aria-labelledby="vacation-title"' in text(client_for(alice).get(reverse("profile")))
