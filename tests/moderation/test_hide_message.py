"""Issue 27.8: a moderator hides a chat message: recorded in the moderation log, shown to
everyone as "message hidden by a moderator", its text never sent to a player again (page,
fragment, live check, log; a record holds no chat); a non-moderator cannot hide one. A
suspended player is told why the chat box is closed."""

import re

import pytest
from django.urls import reverse

from games.models import ChatMessage, ModerationAction, Report
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

INSULT = "you are a worthless cyclist"


@pytest.fixture
def insult(geared_game, bob):
    return ChatMessage.objects.post(geared_game, bob, INSULT)


def hide(browser, message, reason="insult"):
    return browser.post(
        reverse("admin:games_chatmessage_hide", args=[message.pk]), {"reason": reason}
    )


def every_answer(browser, game) -> str:
    """All a player is sent about a game: its page, its fragment, its chat, the live check."""
    answers = [
        browser.get(game.get_absolute_url()),
        browser.get(game.get_absolute_url(), HTTP_HX_REQUEST="true"),
        browser.get(reverse("game_chat", args=[game.pk])),
        browser.get(reverse("game_chat", args=[game.pk]), HTTP_HX_REQUEST="true"),
        browser.get(reverse("game_poll", args=[game.pk]), {"v": 0, "c": 0}),
        browser.get(reverse("game_log", args=[game.pk])),
    ]
    return "".join(str(a.headers) + a.content.decode() for a in answers)


def test_issue_27_8_a_hidden_message_is_gone_from_every_answer(
    mod_client, moderator, geared_game, insult, alice, bob, carol
):
    report = Report.objects.create(message=insult, reporter=alice, reason="rude")
    players = [client_for(alice), client_for(bob), client_for(carol)]
    assert INSULT in every_answer(players[0], geared_game)  # the check can fail

    geared_game.refresh_from_db()  # the message moved the chat's count
    chat_seq = geared_game.chat_seq
    response = hide(mod_client, insult)
    assert response.status_code == 302

    insult.refresh_from_db()
    assert insult.hidden and insult.text == INSULT  # kept for the moderators, not shown
    record = ModerationAction.objects.get()
    assert (record.moderator, record.action, record.message, record.game_id) == (
        moderator,
        "hide message",
        insult,
        geared_game.pk,
    )
    assert record.reason == "insult"
    assert Report.objects.get(pk=report.pk).state == Report.State.HIDDEN
    geared_game.refresh_from_db()
    assert geared_game.chat_seq == chat_seq + 1  # open pages reload their chat
    for browser in players:  # the two players, the author and a spectator
        seen = every_answer(browser, geared_game)
        assert INSULT not in seen
    page = players[0].get(geared_game.get_absolute_url()).content.decode()
    assert "message hidden by a moderator" in page


def test_issue_27_8_hiding_needs_a_reason_and_happens_once(mod_client, insult):
    assert hide(mod_client, insult, reason=" ").status_code == 200  # the form, with its error
    assert not ChatMessage.objects.get(pk=insult.pk).hidden
    assert hide(mod_client, insult).status_code == 302
    again = hide(mod_client, insult)
    assert again.status_code == 200 and "hidden already" in again.content.decode()
    assert ModerationAction.objects.count() == 1


def test_issue_27_8_a_non_moderator_cannot_hide(client, alice, bob, insult):
    client.force_login(alice)  # a player of the game, not staff
    response = hide(client, insult)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    bob.is_staff = True  # staff without the moderators' permission
    bob.save(update_fields=["is_staff"])
    assert hide(client_for(bob), insult).status_code == 403
    assert not ChatMessage.objects.get(pk=insult.pk).hidden
    assert not ModerationAction.objects.exists()


def test_issue_27_8_a_suspended_player_is_told_why_the_chat_is_closed(
    mod_client, geared_game, alice
):
    url = reverse("admin:accounts_user_suspend", args=[alice.pk])
    mod_client.post(url, {"reason": "spamming", "until": "2099-05-01 12:00"})
    alice.refresh_from_db()
    assert alice.is_suspended
    page = client_for(alice).get(geared_game.get_absolute_url()).content.decode()
    assert 'id="chat-closed"' in page and "until 1 May 2099" in page
    assert 'id="chat-text"' not in page  # no box that would answer 403


def test_issue_27_11_no_admin_table_header_is_empty(mod_client, geared_game, insult):
    """The action column of a changelist and the first column of an inline had no text."""
    pages = [
        reverse("admin:games_chatmessage_changelist"),
        reverse("admin:games_report_changelist"),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:games_game_change", args=[geared_game.pk]),
    ]
    for url in pages:
        body = mod_client.get(url).content.decode()
        headers = re.findall(r"<th\b[^>]*>(.*?)</th>", body, flags=re.S)
        assert headers, url
        empty = [h for h in headers if not re.sub(r"<[^>]+>", "", h).strip()]
        assert not empty, (url, empty)
