"""In-game chat: players talk, live and escaped; bad messages get a clear refusal."""

import pytest
from django.urls import reverse

from games.models import ChatMessage, Game, Report
from tests.support.games import start_geared

pytestmark = pytest.mark.django_db


def chat_url(game):
    return reverse("game_chat", args=[game.pk])


def test_a_player_posts_a_message_that_appears_in_the_chat(client, alice, geared_game):
    client.force_login(alice)
    response = client.post(chat_url(geared_game), {"text": "Good luck!"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Good luck!" in response.content.decode()
    assert ChatMessage.objects.get(game=geared_game).text == "Good luck!"
    assert Game.objects.get(pk=geared_game.pk).chat_seq == geared_game.chat_seq + 1
    page = client.get(geared_game.get_absolute_url()).content.decode()
    assert "Good luck!" in page


def test_chat_does_not_make_a_move_stale(client, alice, bob, geared_game):
    client.force_login(bob)
    client.post(chat_url(geared_game), {"text": "hi"})
    assert Game.objects.get(pk=geared_game.pk).version == geared_game.version


@pytest.mark.parametrize(
    ("text", "status", "message"),
    [
        ("   ", 400, "Write something first."),
        ("x" * 501, 400, "at most 500 characters"),
    ],
    ids=["empty", "too-long"],
)
def test_bad_messages_are_refused_and_not_stored(client, alice, geared_game, text, status, message):
    client.force_login(alice)
    response = client.post(chat_url(geared_game), {"text": text}, HTTP_HX_REQUEST="true")
    assert response.status_code == status
    assert message in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_messages_sent_too_fast_are_refused(client, alice, geared_game):
    client.force_login(alice)
    for i in range(5):
        assert client.post(chat_url(geared_game), {"text": f"m{i}"}).status_code == 302
    response = client.post(chat_url(geared_game), {"text": "one too many"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 429
    assert "too fast" in response.content.decode()
    assert ChatMessage.objects.count() == 5


def test_html_in_a_message_is_shown_as_text(client, alice, geared_game):
    client.force_login(alice)
    client.post(chat_url(geared_game), {"text": "<script>alert(1)</script><b>bold</b>"})
    page = client.get(geared_game.get_absolute_url()).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in page


def test_a_spectator_reads_the_chat_but_cannot_post(client, alice, carol, geared_game):
    """Issue 17: a public game's spectators read its chat; only its players write in it."""
    client.force_login(alice)
    client.post(chat_url(geared_game), {"text": "good luck"})
    client.force_login(carol)
    assert client.post(chat_url(geared_game), {"text": "let me in"}).status_code == 404
    log = client.get(chat_url(geared_game))
    assert log.status_code == 200 and "good luck" in log.content.decode()
    assert ChatMessage.objects.count() == 1
    page = client.get(geared_game.get_absolute_url()).content.decode()
    assert "good luck" in page and "Message the table" not in page
    assert "only the players write in it" in page


def test_a_stranger_to_a_private_game_can_neither_read_nor_post(client, alice, bob, carol):
    game = start_geared([alice, bob], public=False)
    game.watchable_by_link = False
    game.save(update_fields=["watchable_by_link"])
    client.force_login(carol)
    assert client.post(chat_url(game), {"text": "let me in"}).status_code == 404
    assert client.get(chat_url(game)).status_code == 404
    assert client.get(chat_url(game), {"token": game.join_token}).status_code == 404
    assert not ChatMessage.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(client, geared_game):
    response = client.post(chat_url(geared_game), {"text": "hi"})
    assert response.status_code == 302 and reverse("account_login") in response.url
    assert not ChatMessage.objects.exists()


def test_a_player_reports_a_message_with_a_reason(client, alice, bob, geared_game):
    message = ChatMessage.objects.post(geared_game, bob, "rude words")
    client.force_login(alice)
    url = reverse("chat_report", args=[geared_game.pk, message.pk])
    response = client.post(url, {"reason": "insult"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "a moderator will look" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.message, report.reason, report.state) == (
        alice,
        message,
        "insult",
        "open",
    )
    again = client.post(url, {"reason": "again"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and Report.objects.count() == 1


def test_a_message_once_reported_offers_no_second_report(client, alice, bob, carol):
    """Issue 34.10: the log kept offering Report on a message already reported. It says
    "Reported" instead, to that reporter only; a second report, with a reason or none, is
    told so in a sentence and changes nothing."""
    game = start_geared([alice, bob, carol])
    message = ChatMessage.objects.post(game, bob, "rude words")
    other = ChatMessage.objects.post(game, bob, "fine words")
    url = reverse("chat_report", args=[game.pk, message.pk])
    client.force_login(alice)
    log = client.post(url, {"reason": "insult"}, HTTP_HX_REQUEST="true").content.decode()
    page = client.get(game.get_absolute_url()).content.decode()
    for html in (log, page):
        assert html.count('class="report-done muted">Reported<') == 1
        assert url not in html
        assert reverse("chat_report", args=[game.pk, other.pk]) in html
    for reason in ("again", ""):
        again = client.post(url, {"reason": reason}, HTTP_HX_REQUEST="true")
        assert again.status_code == 409
        assert "You have already reported this message" in again.content.decode()
    assert list(Report.objects.values_list("reason", flat=True)) == ["insult"]
    client.force_login(carol)  # another player may still report it
    assert url in client.get(game.get_absolute_url()).content.decode()


def test_a_report_needs_a_reason(client, alice, bob, geared_game):
    message = ChatMessage.objects.post(geared_game, bob, "hm")
    client.force_login(alice)
    url = reverse("chat_report", args=[geared_game.pk, message.pk])
    response = client.post(url, {"reason": " "}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and not Report.objects.exists()


def test_a_player_cannot_report_a_message_in_a_game_they_are_not_in(
    client, bob, carol, geared_game
):
    message = ChatMessage.objects.post(geared_game, bob, "hm")
    client.force_login(carol)
    url = reverse("chat_report", args=[geared_game.pk, message.pk])
    assert client.post(url, {"reason": "spam"}).status_code == 404
    assert not Report.objects.exists()


def test_the_poll_says_when_the_chat_changed(client, alice, bob, geared_game):
    client.force_login(alice)
    poll = reverse("game_poll", args=[geared_game.pk])
    v, c = geared_game.version, geared_game.chat_seq
    assert client.get(poll, {"v": v, "c": c}).status_code == 204
    ChatMessage.objects.post(geared_game, bob, "x")  # the chat's count moves with it
    response = client.get(poll, {"v": v, "c": c})
    assert response.status_code == 200 and response.headers["X-Refresh"] == "chat"
