"""Pages cost a fixed number of queries, however many players, moves or games there are."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Follow
from games import engines
from games.actions import moderation, moves, tables
from games.actions.notes import save_note
from games.live import cache as live
from games.models import Kind, Notification, Rating
from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import count_queries
from tests.support.statements import as_in_production, split_statements
from tests.support.users import make_user
from tests.views.helpers import post_move

pytestmark = pytest.mark.django_db


def people(django_user_model, prefix: str, n: int):
    return [make_user(django_user_model, f"{prefix}{i}") for i in range(n)]


def first_view_costs(game, user) -> dict[str, int]:
    """Queries for a player's first look at the page (it records what they have seen), a second
    look, and the fragment."""
    client = client_for(user)
    page = game.get_absolute_url()
    fragment = reverse("game_fragment", args=[game.pk])
    return {
        "page, first look": count_queries(client, page),
        "page, again": count_queries(client, page),
        "fragment": count_queries(client, fragment),
        "fragment with a selection": count_queries(client, fragment, pick="1,2"),
    }


def test_the_game_page_costs_the_same_for_two_players_at_the_start_and_six_late(
    django_user_model,
):
    small = start_geared(people(django_user_model, "s", 2), target=1000)
    big = advance(start_geared(people(django_user_model, "b", 6), target=2000), 42)
    assert big.is_active and big.move_count >= 40
    viewer_small = small.seats.get(position=1).user
    viewer_big = big.seats.get(position=1).user
    assert first_view_costs(big, viewer_big) == first_view_costs(small, viewer_small)


def test_a_spectator_pays_the_same_for_a_small_and_a_big_public_game(django_user_model):
    """A visitor: the game with its seats and players (one query) for the page and the fragment;
    the log adds its moves. A signed-in spectator adds their user row (they are not among the
    seats) and the nav's count, and on the full page the chat, when it has a message (no
    query for a chat with nothing in it, issue 36.2's second pass: `Game.chat_seq` says)."""
    small = start_geared(people(django_user_model, "s", 2), public=True, target=1000)
    big = advance(start_geared(people(django_user_model, "b", 6), public=True, target=2000), 42)
    expected = {"visitor": [1, 1, 2], "spectator": [3, 3, 4]}
    for who, client in (
        ("visitor", Client()),
        ("spectator", client_for(make_user(django_user_model, "watcher"))),
    ):
        costs = []
        for game in (small, big):
            costs.append(
                [
                    count_queries(client, game.get_absolute_url()),
                    count_queries(client, reverse("game_fragment", args=[game.pk])),
                    count_queries(client, reverse("game_log", args=[game.pk])),
                ]
            )
        assert costs[0] == costs[1] == expected[who], who


def test_my_games_costs_the_same_with_one_game_and_twenty(alice, django_user_model):
    """The user row; what says whether the list changed (an aggregate of the player's seats,
    one of their invitations: my_games._my_games_key); the nav's count. The list itself is
    drawn once per change and kept (two lists of seats, their tables, the invitations: four
    queries more on a change, none here)."""
    others = people(django_user_model, "p", 3)
    start_geared([alice, others[0]])
    client = client_for(alice)
    drawn = count_queries(client, reverse("my_games"))
    kept = count_queries(client, reverse("my_games"))
    for i in range(19):  # active (my turn or not), open, and finished games, with 2-3 players
        if i % 3 == 0:
            start_geared([alice, *others[: 1 + i % 2]])
        elif i % 3 == 1:
            game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3))
            tables.join_game(others[1], game.pk, token=game.join_token)
        else:
            advance(start_geared([others[2], alice]), 10 if i < 9 else 500)
    invited = tables.create_game(others[0], tables.NewGame(kind=Kind.GEARED, seat_count=2))
    tables.invite(others[0], invited.pk, "alice")
    assert alice.seats.count() == 20
    assert count_queries(client, reverse("my_games")) == drawn == 8  # drawn again: it changed
    assert count_queries(client, reverse("my_games")) == kept == 4


def test_the_lobby_costs_the_same_with_one_open_game_and_twenty(alice, bob, django_user_model):
    """The lists (open tables, games to watch) are the same for everyone: drawn by the first
    visit after a change (here the visitor's: the open tables with their counts, the games to
    watch; and their seats, one query, when there are some) and kept. A signed-in player then
    pays their user row, the invite box (the people played with, those followed: two queries)
    and the nav's count."""
    hosts = people(django_user_model, "h", 20)

    def open_public(host):
        game = tables.create_game(
            host, tables.NewGame(kind=Kind.GEARED, seat_count=3, public=True, bots=("greedy",))
        )
        tables.join_game(bob, game.pk)

    open_public(hosts[0])
    costs = {}
    for label, client in (("visitor", Client()), ("player", client_for(alice))):
        costs[label] = [count_queries(client, reverse("lobby"))]
    for host in hosts[1:]:
        open_public(host)
    for label, client in (("visitor", Client()), ("player", client_for(alice))):
        costs[label].append(count_queries(client, reverse("lobby")))
    assert costs == {"visitor": [2, 2], "player": [4, 4]}


def test_the_lobby_after_a_refused_create_costs_the_same_with_one_open_game_and_twenty(
    alice, django_user_model
):
    hosts = people(django_user_model, "h", 20)
    client = client_for(alice)
    bad = {"kind": "geared", "seat_count": 7, "target": 300, "turn_seconds": 0, "bots": 0}

    def refused_create() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.post(reverse("create_game"), {**bad, "bot_kind": "greedy"})
        assert response.status_code == 400
        return len(queries)

    tables.create_game(hosts[0], tables.NewGame(kind=Kind.GEARED, seat_count=2, public=True))
    one = refused_create()
    for host in hosts[1:]:
        tables.create_game(host, tables.NewGame(kind=Kind.GEARED, seat_count=2, public=True))
    assert refused_create() == one


@pytest.mark.parametrize("who", ["player", "spectator", "visitor"])
def test_the_poll_costs_at_most_three_queries_with_the_session(alice, bob, carol, who):
    game = start_geared([alice, bob], public=True)
    client = {"player": client_for(alice), "spectator": client_for(carol), "visitor": Client()}[who]
    for v in (game.version, game.version - 1):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("game_poll", args=[game.pk]), {"v": v})
        assert response.status_code in (200, 204)
        assert len(queries) <= 3, [q["sql"] for q in queries.captured_queries]


def test_a_player_s_page_and_fragment_cost_a_fixed_few_queries(alice, bob):
    """The game with its seats and players, and on the full page the player's own note (issue
    27.4), in one query; the nav's count (also what the "next game" link reads, issue 27.3);
    the first look also records what was seen. No user row: the player's is the one read with
    the seats. Issue 36.2's second pass took two statements out of the page: the note's own
    (now read with the game) and the chat's (none while the game has no message)."""
    game = start_geared([alice, bob])
    assert first_view_costs(game, alice) == {
        "page, first look": 3,
        "page, again": 2,
        "fragment": 2,
        "fragment with a selection": 2,
    }


def test_a_chat_with_a_message_is_read_for_one_statement_more(alice, bob, carol):
    """`chat_seq` 0 is exactly "never a message" (ChatMessage.objects.post moves it with each
    one): the page of a game without one reads no chat; once a message is posted, the page,
    the chat fragment and the API show it, the page for one statement more."""
    game = start_geared([alice, bob])
    other = start_geared([alice, carol])
    client = client_for(alice)
    page, chat = game.get_absolute_url(), reverse("game_chat", args=[game.pk])
    count_queries(client, page)  # the first look records what was seen
    without = count_queries(client, page)
    assert "good luck" not in client.get(page).content.decode()
    moderation.post_chat(bob, game.pk, "good luck")
    assert "good luck" in client.get(page).content.decode()
    assert "good luck" in client.get(chat, HTTP_HX_REQUEST="true").content.decode()
    assert count_queries(client, page) == without + 1
    # The other game's chat is still empty and still not read.
    count_queries(client, other.get_absolute_url())
    assert count_queries(client, other.get_absolute_url()) == without


def test_the_note_read_with_the_game_is_the_reader_s_own_only(alice, bob, carol):
    """The note read in the game's query (notes.game_with_note) is the session's user's own:
    bob's note is never on alice's page, a page of a game where she wrote none shows none,
    and her own is there, at no statement more."""
    game = start_geared([alice, bob, carol])
    client = client_for(alice)
    page = game.get_absolute_url()
    count_queries(client, page)
    without = count_queries(client, page)
    save_note(game, bob, "bob plans zq8")
    assert "zq8" not in client.get(page).content.decode()
    save_note(game, alice, "alice plans zq9")
    body = client.get(page).content.decode()
    assert "zq9" in body and "zq8" not in body
    assert count_queries(client, page) == without
    assert "zq9" not in client_for(carol).get(page).content.decode()
    assert "zq8" in client_for(bob).get(page).content.decode()


# What each statement of a write is, by its start: the move's transaction is listed by these.
@pytest.fixture
def streams(settings):
    """As in production: streams on, a shared cache (tests/support/statements.py)."""
    as_in_production(settings)


def test_a_move_answered_with_the_fragment_costs_six_statements_and_the_user(
    alice, bob, monkeypatch, streams
):
    """Issue 36.1: a plain Geared move to a person who gets an e-mail. The move's transaction:
    the game locked and read with its seats (one statement), the Move row, the game, the
    seats (to_act and what the mover has now seen, in one UPDATE), the outbox row, the notify.
    Besides it, only the session's user: the answer is drawn from the game the move left, what
    the mover has seen was written with the move, and the nav's count comes from the cache."""
    rng = random.Random(16)  # one deal, whose first move is a plain one (not the game's end)
    monkeypatch.setattr(tables, "table_rng", lambda: rng)
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    client = client_for(seat.user)
    client.get(game.get_absolute_url())  # the player's page: what they see before they move
    with CaptureQueriesContext(connection) as queries:
        response = post_move(client, game, greedy_choice(game, seat), game.version, htmx=True)
    assert response.status_code == 200
    outside, inside = split_statements(queries)
    assert inside == ["lock", "move", "game", "seats", "outbox", "notify"], inside
    assert outside == ["user"], outside
    seat.refresh_from_db()
    game.refresh_from_db()
    assert (seat.seen_version, seat.to_act) == (game.version, False)
    assert game.state["events"][-1]["n"] == seat.seen_mark
    assert Notification.objects.filter(game=game, user=bob if seat.user == alice else alice).count()


def test_a_move_that_ends_the_game_writes_the_result_and_both_e_mails_in_one_insert(
    alice, bob, streams
):
    """The move that ends a Geared game: the same statements, and the ratings recorded in the
    game-over transaction (games/actions/rating_changes.py: once, each player's rating locked
    and written, the changes in one INSERT), and the "game over" e-mails of both players in
    one INSERT."""
    for user in (alice, bob):  # players who have played before (a first game creates them)
        Rating.objects.create(kind=Kind.GEARED, user=user, mu=25.0, sigma=8.3)
    game = start_geared([alice, bob], target=300)
    eng = engines.engine(game.kind)
    while True:  # play on until the greedy move ends the game
        seat = seat_to_act(game)
        action = greedy_choice(game, seat)
        if eng.is_over(eng.apply(game.state, seat.seat_id, action)):
            break
        moves.submit_action(seat.user, game.pk, game.version, action)
    client = client_for(seat.user)
    with CaptureQueriesContext(connection) as queries:
        response = post_move(client, game, action, game.version, htmx=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == "finished"
    outside, inside = split_statements(queries)
    # Besides the user, the end screen's own read (a rematch offered?) draws the answer.
    assert outside[0] == "user" and len(outside) == 2 and "rematch_of" in outside[1], outside
    rated = [
        "rated already?",
        "rating locked",
        "rating locked",
        "rating",
        "rating",
        "rating changes",
    ]
    assert inside == ["lock", "move", *rated, "game", "seats", "outbox", "notify"], inside
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2


def test_the_nav_count_moves_in_the_cache_at_the_commit(
    alice, bob, streams, django_capture_on_commit_callbacks
):
    """The move's commit moves each player's cached "your turn" count by what changed (one
    less for the mover, one more for the next), so the answer's nav reads the cache: right,
    as the database counts it."""
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    other = bob if seat.user == alice else alice
    assert (live.your_turn(seat.user.pk), live.your_turn(other.pk)) == (1, 0)  # now cached
    with django_capture_on_commit_callbacks(execute=True):
        moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    with CaptureQueriesContext(connection) as queries:
        counts = (live.your_turn(seat.user.pk), live.your_turn(other.pk))
    assert counts == (0, 1)
    assert not queries.captured_queries
    assert counts == (live._count_turns(seat.user.pk), live._count_turns(other.pk))


def _move_queries(client, game, action, version) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = post_move(client, game, action, version, htmx=True)
    sql = [q["sql"] for q in queries.captured_queries]
    return response, [q for q in sql if "SAVEPOINT" not in q]


def test_a_refused_move_is_answered_from_the_game_read_under_the_lock(alice, bob):
    """A stale version: the user, the game locked and read with its seats (one statement),
    what the mover has now seen (written by the render: no move wrote it). The game is not read
    again for the answer."""
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    client = client_for(seat.user)
    response, sql = _move_queries(client, game, greedy_choice(game, seat), game.version - 1)
    assert response.status_code == 409
    assert "The game has moved on since this page was loaded" in response.content.decode()
    assert len(sql) == 3, sql
    game.refresh_from_db()
    assert game.move_count == 0  # nothing changed


def test_a_move_that_leaves_a_bot_to_play_is_answered_without_reading_the_game_again(alice):
    """Against a bot the move leaves the server a step to take (`due_since`): the answer is
    drawn from the game the move left, as for any move; the page learns of the bot's move by
    its live check."""
    game = start_geared([alice], bots=("greedy",), target=1000)
    moves.play_bots(game.pk)  # the bot may be first
    game.refresh_from_db()
    seat = seat_to_act(game)
    client = client_for(seat.user)
    response, sql = _move_queries(client, game, greedy_choice(game, seat), game.version)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.due_since is not None and game.move_count >= 1
    # The user, the game locked and read with its seats, the Move row, the game, the seats
    # (to_act and what the mover has now seen), the version last committed (the cache's, set
    # at the commit: here, inside the test's transaction, the database's), the nav's count
    # (no shared cache here): no e-mail (the bot is next), no second read of the game.
    assert len(sql) == 7, sql
    # The game's row with its state is read once: by the lock, not again for the answer.
    reads = [q for q in sql if q.lstrip().startswith("SELECT") and '"state"' in q]
    assert len(reads) == 1, reads


def test_the_invite_boxes_cost_the_same_for_a_newcomer_and_a_player_with_many_friends(
    alice, django_user_model
):
    """Issue 27.2: the lobby's invite box and the open table's (the people played with, then
    those followed) are two queries whatever their number; `?with=` names add one."""
    client = client_for(alice)
    table = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3))
    urls = (reverse("lobby"), table.get_absolute_url(), f"{reverse('lobby')}?with=f0,f1")
    count_queries(client, urls[0])  # the lobby's lists, drawn once and cached (LOBBY_SECONDS)
    newcomer = [count_queries(client, url) for url in urls]
    friends = people(django_user_model, "f", 15)
    for friend in friends[:13]:
        game = tables.create_game(friend, tables.NewGame(kind=Kind.GEARED, seat_count=2))
        tables.join_game(alice, game.pk, token=game.join_token)
    for friend in friends[5:]:
        Follow.objects.create(follower=alice, followed=friend)
    count_queries(client, urls[0])
    assert [count_queries(client, url) for url in urls] == newcomer
    assert newcomer[2] == newcomer[0] + 1
