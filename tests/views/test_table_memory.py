"""Issue 27, points 3-5: the next game waiting for me, my private notes on a game, and logs that
read in order (turns as headings, times in the reader's zone, the chat's times)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.actions import moderation
from games.models import Game, GameNote
from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import text
from tests.views.helpers import post_move

pytestmark = pytest.mark.django_db

NEXT = "Next game waiting for you"


def waiting_for(user, other, *, target: int = 1000, public: bool = False) -> Game:
    """A Geared game of `user` and `other` in which it is `user`'s turn."""
    game = start_geared([user, other], target=target, public=public)
    while seat_to_act(game).user_id != user.pk:
        game = advance(game, 1)
    return game


def htmx_move(client, game: Game):
    action = greedy_choice(game, seat_to_act(game))
    with CaptureQueriesContext(connection) as queries:
        answer = post_move(client, game, action, game.version, htmx=True)
    return answer, [q["sql"] for q in queries.captured_queries]


# --- 27.3: the next game -------------------------------------------------------------------------


def test_issue_27_3_after_a_move_the_next_game_leads_to_the_one_waiting_longest(alice, bob, carol):
    """Three games wait for alice; she moves in one. The answer offers the next game at no extra
    query (the nav's count it already sends), and the link leads to the game with the nearest
    deadline, then to the one whose turn came first."""
    here = waiting_for(alice, bob)
    newer = waiting_for(alice, carol)
    older = waiting_for(alice, bob)
    long_ago = timezone.now() - timedelta(days=3)
    Game.objects.filter(pk=older.pk).update(updated=long_ago)
    Game.objects.filter(pk=newer.pk).update(updated=timezone.now())
    client = client_for(alice)

    answer, sql = htmx_move(client, here)
    assert answer.status_code == 200
    # As test_queries' move (11 there, with the next player's e-mail): the link costs none.
    assert len(sql) <= 11, sql
    assert answer["X-Your-Turn"] == "2"
    page = text(answer)
    assert NEXT in page and 'aria-keyshortcuts="n"' in page and "<kbd>N</kbd>" in page
    link = re.search(r'href="([^"]+)" data-next-game', page).group(1).replace("&amp;", "&")
    assert link == f"{reverse('next_game')}?from={here.pk}"
    assert client.get(link)["Location"] == older.get_absolute_url()

    # A deadline, however recent the turn, comes before any game without one.
    Game.objects.filter(pk=newer.pk).update(deadline=timezone.now() + timedelta(hours=2))
    assert client.get(link)["Location"] == newer.get_absolute_url()


def test_issue_27_3_nothing_is_offered_when_no_other_game_waits(alice, bob, carol):
    here = waiting_for(alice, bob)
    client = client_for(alice)
    answer, _sql = htmx_move(client, here)
    assert answer.status_code == 200 and NEXT not in text(answer)
    # Nor on a game whose turn is mine while another waits (play this one first).
    other = waiting_for(alice, carol)
    assert NEXT not in text(client.get(other.get_absolute_url()))
    # The link's own page, followed late (the last game was played meanwhile): My games.
    answer = client.get(reverse("next_game"), {"from": other.pk}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("my_games")
    assert "No other game is waiting for you." in text(answer)


def test_issue_27_3_the_waiting_player_s_page_and_fragment_offer_it_too(alice, bob, carol):
    """Whoever waits in one game while another is theirs sees the way on, in the full page
    and in the fragment the live check fetches; a spectator never does."""
    waiting_for(alice, carol)
    game = waiting_for(bob, alice, public=True)
    client = client_for(alice)
    assert NEXT in text(client.get(game.get_absolute_url()))
    fragment = client.get(reverse("game_fragment", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert NEXT in text(fragment)
    assert NEXT not in text(client_for(carol).get(game.get_absolute_url()))


# --- 27.4: private notes -------------------------------------------------------------------------

SECRET = "Plan: Bob discarded two level-3 wheels zq7"


def note_url(game: Game) -> str:
    return reverse("game_note", args=[game.pk])


def save(client, game: Game, note: str, **extra):
    return client.post(note_url(game), {"text": note}, HTTP_HX_REQUEST="true", **extra)


def test_issue_27_4_a_player_saves_a_note_in_place_without_changing_the_game(alice, bob):
    game = waiting_for(alice, bob)
    client = client_for(alice)
    assert 'id="notes-text"' in text(client.get(game.get_absolute_url()))
    answer = save(client, game, SECRET + "\r\nline two")
    assert answer.status_code == 200
    assert 'id="notes-status"' in text(answer) and "Saved" in text(answer)
    assert GameNote.objects.get(game=game, user=alice).text == SECRET + "\nline two"
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.version, fresh.updated) == (game.version, game.updated)
    assert SECRET in text(client.get(game.get_absolute_url()))
    # Saved again: still one note; emptied: gone.
    assert save(client, game, "second thoughts").status_code == 200
    assert GameNote.objects.get(game=game, user=alice).text == "second thoughts"
    assert save(client, game, "  ").status_code == 200
    assert not GameNote.objects.exists()
    # Without htmx: back to the game, the notes in view.
    plain = client.post(note_url(game), {"text": SECRET})
    assert plain.status_code == 302 and plain["Location"].endswith("#notes")


def test_issue_27_4_a_note_too_long_or_with_a_nul_is_refused_with_a_sentence(alice, bob):
    game = waiting_for(alice, bob)
    client = client_for(alice)
    long = save(client, game, "x" * 2001)
    assert long.status_code == 400
    assert "at most 2,000 characters" in text(long) and 'id="notes-status"' in text(long)
    assert save(client, game, "x" * 1999 + "\r\n").status_code == 200  # a line break is one
    GameNote.objects.all().delete()
    assert save(client, game, "a\x00b").status_code == 400
    assert client.post(note_url(game), HTTP_HX_REQUEST="true").status_code == 400
    assert not GameNote.objects.exists()


def test_issue_27_4_only_a_seated_player_keeps_notes(alice, bob, carol, django_user_model):
    public = waiting_for(alice, bob, public=True)
    private = waiting_for(alice, bob)
    watcher = client_for(carol)
    assert 'id="notes-text"' not in text(watcher.get(public.get_absolute_url()))
    assert save(watcher, public, SECRET).status_code == 403
    assert save(watcher, private, SECRET).status_code == 404
    assert Client().post(note_url(public), {"text": SECRET}).status_code == 302  # log in first
    assert save(client_for(alice), Game(pk=999999), SECRET).status_code == 404
    # The CSRF check holds for this form as for every other.
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(alice)
    assert forged.post(note_url(private), {"text": SECRET}).status_code == 403
    assert not GameNote.objects.exists()


def test_issue_27_4_hidden_nobody_else_ever_reads_the_note(alice, bob, carol):
    """Alice's note is in no page, fragment, poll answer, log or chat of bob's (her opponent)
    or carol's (a spectator), nor in the finished game's exported record."""
    game = waiting_for(alice, bob, target=300, public=True)
    moderation.post_chat(bob, game.pk, "good luck")
    assert save(client_for(alice), game, SECRET).status_code == 200
    game = advance(game, 400)
    assert game.status == "finished"
    urls = [
        game.get_absolute_url(),
        reverse("game_fragment", args=[game.pk]),
        reverse("game_log", args=[game.pk]),
        reverse("game_chat", args=[game.pk]),
        reverse("game_replay", args=[game.pk]),
        reverse("game_record", args=[game.pk]),
        reverse("game_poll", args=[game.pk]) + "?v=0&c=0",
    ]
    for who, client in (("bob", client_for(bob)), ("carol", client_for(carol)), ("", Client())):
        for url in urls:
            answer = (
                client.get(url, HTTP_HX_REQUEST="true") if "fragment" in url else client.get(url)
            )
            assert answer.status_code in (200, 302, 286), url
            body = b"".join(answer) if answer.streaming else answer.content
            assert b"zq7" not in body, (who, url)
            assert not any("zq7" in v for v in answer.headers.values()), (who, url)
            if who != "bob":  # bob's own page has his own (empty) box; a spectator none
                assert b"notes-text" not in body, (who, url)
    # Alice still reads it on her own page, and the record (hers too) carries none of it.
    alice = client_for(alice)
    assert SECRET in text(alice.get(game.get_absolute_url()))
    assert b"zq7" not in alice.get(reverse("game_record", args=[game.pk])).content


def test_issue_27_4_hidden_the_notes_are_read_in_one_place_only():
    """The e-mails, pushes, streams, records and fragments cannot show a note: only the notes
    modules touch the model (its writing, games/actions/notes.py, and its reading,
    games/reads/notes.py), and only the notes view and the full game page use them (its
    game read with the player's note, views/common.visible_game's `with_note`)."""
    root = Path(__file__).resolve().parents[2]
    readers = {
        str(path.relative_to(root))
        for package in ("games", "accounts", "config")
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts
        and re.search(r"\bGameNote\b|from games[.\w]* import [^\n]*\bnotes\b", path.read_text())
    }
    assert readers == {
        "games/models/__init__.py",
        "games/models/table.py",
        "games/actions/notes.py",
        "games/reads/notes.py",
        "games/views/notes.py",
        "games/views/game.py",
        "games/views/common.py",
    }


# --- 27.5: logs that read in order ---------------------------------------------------------------


def test_issue_27_5_the_story_is_plainly_newest_first_without_numbers(alice, bob):
    game = advance(start_geared([alice, bob], target=1000), 3)
    page = text(client_for(alice).get(game.get_absolute_url()))
    story = page.split('aria-label="What happened"')[1].split("</section>")[0]
    assert "newest first" in story
    assert '<ul class="events">' in story and "<ol" not in story


def test_issue_27_5_the_log_has_turns_oldest_first_with_times_in_the_reader_s_zone(
    alice, bob, carol
):
    game = advance(start_geared([alice, bob], target=1000, public=True), 6)
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    log = text(client_for(alice).get(reverse("game_log", args=[game.pk])))
    numbers = [int(n) for n in re.findall(r'<h2 id="turn-\d+-title">Turn (\d+) · ', log)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 3
    stamps = re.findall(r'<time class="log-time" datetime="([^"]+)">', log)
    assert len(stamps) == len(numbers) and all(s.endswith("+09:00") for s in stamps)
    assert "Asia/Tokyo" in log and "your profile" in log
    # A visitor reads UTC, and is told so.
    visitor = text(Client().get(reverse("game_log", args=[game.pk])))
    assert "<strong>UTC</strong>" in visitor
    assert all(s.endswith("+00:00") for s in re.findall(r'datetime="([^"]+)"', visitor))


def test_issue_27_5_chat_messages_show_their_time_in_the_reader_s_zone(alice, bob):
    game = waiting_for(alice, bob)
    moderation.post_chat(bob, game.pk, "hello there")
    bob.time_zone = "America/New_York"
    bob.save(update_fields=["time_zone"])
    chat = text(client_for(bob).get(reverse("game_chat", args=[game.pk])))
    stamp = re.search(r'<time class="chat-time" datetime="([^"]+)">', chat).group(1)
    assert stamp.endswith(("-05:00", "-04:00"))
