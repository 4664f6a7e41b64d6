"""Players with a face (issue 27.1: every name links to its player; the player's page lists
recent games, charts the rating with axes and dates, shows it on the 1500 scale) and friends
(issue 27.2: follow a player, "play again with", the invite boxes offer the people you played
with first). Personas: alice and bob play; carol is a stranger who must not see their private
games; dave is followed."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Follow
from games.actions import moves
from games.models import Game, Invitation, Notification, Push, Rating
from tests.notifications.helpers import submit_program
from tests.support.api import token_for
from tests.support.games import advance, client_for, start_geared, start_oog
from tests.support.users import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(django_user_model):
    return make_user(django_user_model, "dave", display_name="Dave")


@pytest.fixture
def finished(alice, bob) -> Game:
    """A private game alice and bob played to the end, with a greedy bot."""
    game = start_geared([alice, bob], bots=("greedy",))
    for _ in range(3000):
        moves.catch_up(game.pk)  # the bot's moves
        game = advance(game, 1)
        if not game.is_active:
            break
    assert game.status == "finished"
    return game


def player_url(user) -> str:
    return reverse("player", args=[user.username])


def test_issue_27_1_names_link_to_their_players_and_bots_do_not(finished, alice, bob):
    client = client_for(alice)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert f'<a class="player-link" href="{player_url(bob)}">Bob</a>' in page  # the standings
    assert "Greedy bot" in page and 'href="/bots/' not in page  # a bot's name is no link
    rows = client.get(reverse("finished_games")).content.decode()
    assert f'href="{player_url(bob)}">Bob</a>' in rows  # My games' rows
    # A deactivated account's name is plain text: its page is a 404.
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    page = client.get(finished.get_absolute_url()).content.decode()
    assert player_url(bob) not in page and "Bob" in page
    assert client.get(player_url(bob)).status_code == 404


def test_issue_27_1_the_lobby_and_the_chat_link_names(alice, bob, carol):
    game = start_geared([alice, bob], target=1000, public=True)
    client = client_for(bob)
    client.post(reverse("game_chat", args=[game.pk]), {"text": "hello"})
    lobby = Client().get(reverse("lobby")).content.decode()
    assert f'href="{player_url(alice)}">Alice</a>' in lobby  # games to watch
    page = client_for(carol).get(game.get_absolute_url()).content.decode()
    assert f'<span class="chat-author"><a class="player-link" href="{player_url(bob)}">' in page


def test_issue_27_1_the_page_shows_the_rating_on_the_1500_scale_with_axes_and_a_table(
    finished, alice
):
    rating = Rating.objects.get(user=alice, kind="geared")
    page = Client().get(player_url(alice)).content.decode()  # public, as on lichess
    assert rating.provisional  # after one game
    assert f'title="How it is worked out">{rating.display}<abbr' in page
    assert 1300 < rating.display < 1700
    assert f"μ = {rating.mu:.2f}, σ = {rating.sigma:.2f}" in page  # the maths behind the link
    chart = page.index("rating-chart")
    svg = page[page.index("<svg", chart) : page.index("</svg>", chart)]
    assert svg.count('class="chart-axis"') == 2
    assert len(re.findall(r'class="chart-label"[^>]*>\d{4}</text>', svg)) == 3  # y ticks
    assert svg.count("<circle") == 2 and "<title>" in svg  # a dot per point, with its tooltip
    table = page[page.index('<details class="rating-table">') :]
    assert "<caption" in table and f"<td>{rating.display}?</td>" in table
    assert "@example.com" not in page  # never an e-mail address


def test_issue_27_1_recent_games_show_only_what_the_visitor_may_open(finished, alice, bob, carol):
    public = start_geared([alice, carol], target=1000, public=True)
    replay = reverse("game_replay", args=[finished.pk])
    for_bob = client_for(bob).get(player_url(alice)).content.decode()
    assert replay in for_bob and public.get_absolute_url() in for_bob  # theirs, and a public one
    assert re.search(r"(1st|2nd|3rd) of 3", for_bob)
    assert f'href="{player_url(bob)}">Bob</a>' in for_bob  # the opponents, linked
    for_carol = client_for(carol).get(player_url(alice)).content.decode()
    assert public.get_absolute_url() in for_carol and replay not in for_carol  # private: hidden
    assert Client().get(player_url(alice), {"page": "abc"}).status_code == 400
    assert Client().get(player_url(alice), {"page": "999"}).status_code == 400


def test_issue_27_1_the_player_page_costs_the_same_for_one_game_or_many(alice, bob, carol):
    """A signed-in visitor's look at a player's page: the visitor's user row; the player with
    whether the visitor follows them (one query); the page of games, then their tables; the
    player's ratings with the greedy bot's beside them (one query); the finished games' counts;
    the nav's "your turn" count (the cache's, where there is one). A visitor who is not signed
    in: the same but their user, the follow and the nav's count."""

    def count(client) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(player_url(alice)).status_code == 200
        return len(queries)

    start_geared([alice, bob], target=1000, public=True)
    few = count(client_for(carol)), count(Client())
    for _ in range(3):
        start_geared([alice, bob, carol], target=1000, public=True)
    assert (count(client_for(carol)), count(Client())) == few == (7, 5)


def test_issue_27_2_follow_and_unfollow_need_a_login_a_post_and_tell_nobody(alice, dave):
    url = reverse("player_follow", args=["dave"])
    assert Client().post(url).status_code == 302 and not Follow.objects.exists()  # to log in
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(url).status_code == 403 and not Follow.objects.exists()  # no CSRF token
    client = client_for(alice)
    assert client.get(url).status_code == 405
    mails = (Notification.objects.count(), Push.objects.count(), Invitation.objects.count())
    assert client.post(url).status_code == 302
    assert client.post(url).status_code == 302  # twice: still one row
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [
        ("alice", "dave")
    ]
    assert (Notification.objects.count(), Push.objects.count(), Invitation.objects.count()) == mails
    page = client.get(player_url(dave)).content.decode()
    assert ">Unfollow</button>" in page
    profile = client.get(reverse("profile")).content.decode()
    assert f'<a href="{player_url(dave)}">Dave</a>' in profile
    # dave's own profile does not list who follows him.
    assert "Alice" not in client_for(dave).get(reverse("profile")).content.decode()
    assert client.post(reverse("player_follow", args=["alice"])).status_code == 400  # oneself
    assert client.post(reverse("player_follow", args=["nobody"])).status_code == 404
    client.post(url, {"unfollow": "1"})
    assert not Follow.objects.exists()


def test_issue_27_2_a_suspended_player_s_page_says_nothing_of_why(alice, bob):
    bob.suspended, bob.suspension_reason = True, "rude in chat"
    bob.save(update_fields=["suspended", "suspension_reason"])
    page = client_for(alice).get(player_url(bob)).content.decode()
    assert "not taking new games" in page and "rude" not in page
    assert "Play a game with" not in page


def test_issue_27_2_play_again_ticks_the_players_and_invites_them_through_the_table_path(
    finished, alice, bob, carol, dave
):
    client = client_for(alice)
    page = client.get(finished.get_absolute_url()).content.decode()
    again = re.search(r'href="([^"]+)">Play again with them<', page).group(1)
    assert again.startswith(reverse("lobby")) and "bob" in again
    Follow.objects.create(follower=alice, followed=dave)
    lobby = client.get(again.replace("&amp;", "&")).content.decode()
    box = lobby[lobby.index('class="invite-picks"') :]
    assert re.search(r'value="bob" checked>', box)
    assert box.index('value="bob"') < box.index('value="dave"')  # played with, then followed
    assert 'value="dave">' in box  # offered, not ticked
    form = {"kind": "geared", "seat_count": 3, "turn_seconds": 86400, "bots": 0}
    form |= {"bot_kind": "greedy", "target": 1000, "watchable_by_link": "on"}
    answer = client.post(reverse("create_game"), {**form, "invite": ["bob", "nobody"]})
    game = Game.objects.exclude(pk=finished.pk).get(creator=alice)
    assert answer.status_code == 302 and answer.url == game.get_absolute_url()
    assert list(Invitation.objects.filter(game=game).values_list("user__username", flat=True)) == [
        "bob"
    ]
    shown = client.get(answer.url).content.decode()
    assert "Invitation sent to Bob" in shown and "There is no player called" in shown
    # The table's own invite box offers the same people.
    assert '<datalist id="invite-suggestions"><option value="bob">' in shown
    too_many = client.post(reverse("create_game"), {**form, "invite": [f"u{i}" for i in range(8)]})
    assert too_many.status_code == 400
    assert Game.objects.filter(creator=alice).count() == 2  # nothing made
    # A stranger's page offers to play with them.
    page = client.get(player_url(carol)).content.decode()
    assert f"{reverse('lobby')}?with=carol#new-game" in page


def test_issue_27_1_the_logs_sentences_link_their_players_names_and_nothing_else(
    alice, bob, django_user_model
):
    """A sentence of the game page's story and of the log page names a player by a link to
    their page (a bot's name stays text); a name is escaped like any text, and only the names
    become markup. The API's log, which is no page, keeps its sentences as text."""
    bob.display_name = 'Bo<b>b "&"'
    bob.save(update_fields=["display_name"])
    game = start_geared([alice, bob], bots=("greedy",), target=2000)
    for _ in range(12):
        moves.catch_up(game.pk)  # the bot's moves
        game = advance(game, 1)
    link = f'<a class="player-link" href="{player_url(bob)}">Bo&lt;b&gt;b &quot;&amp;&quot;</a>'
    page = client_for(alice).get(game.get_absolute_url()).content.decode()
    story = re.search(r'<ul class="events">(.*?)</ul>', page, re.S)[1]
    log = client_for(alice).get(reverse("game_log", args=[game.pk])).content.decode()
    for where, text in (("story", story), ("log", log)):
        assert link in text, where
        assert "<b>b" not in text and "\x00" not in text, where
    assert re.search(r"Greedy bot \d? ?(played|passed|discarded)", log)  # a bot's: text
    token = token_for(alice)
    api_log = Client(headers={"Authorization": f"Bearer {token}"}).get(
        f"/api/v1/games/{game.pk}/log"
    )
    lines = [line for turn in api_log.json()["turns"] for line in turn["lines"]]
    assert any(line.startswith('Bo<b>b "&" ') for line in lines)
    assert not any("player-link" in line or "\x00" in line for line in lines)


def test_issue_27_1_out_of_gears_stories_link_their_players_names(alice, bob):
    game = start_oog([alice, bob])
    for user in (alice, bob):
        submit_program(game, user)
    moves.catch_up(game.pk)  # the resolution, queued on commit
    game.refresh_from_db()
    assert game.turn == 2
    link = f'(<a class="player-link" href="{player_url(bob)}">Bob</a>)'
    page = client_for(alice).get(game.get_absolute_url()).content.decode()
    log = client_for(alice).get(reverse("game_log", args=[game.pk])).content.decode()
    assert link in page and link in log
