"""Issue 37: an e-mail or a push is drawn in its recipient's language at the moment of sending
(docs/i18n.md), never the sender's nor the page's: an Italian and an English player of the same
table each read theirs in their own; an invitation to an address with no account goes out in the
inviter's. Rendered through the worker's own functions (`deliver`, `push_payload`,
`send_invitation`), without a worker.

Needs the Italian catalog (locale/it/LC_MESSAGES/django.po, compiled by `make catalogs` or the
tests' conftest)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from games.actions import tables
from games.models import Invitation, Notification
from games.notifications import email, outbox
from games.notifications.push_delivery import PUSH_BODY, invitation_payload, push_payload
from games.notifications.unsubscribe import unsubscribe_token
from tests.notifications.helpers import Note, text_part
from tests.support.games import client_for, start_geared

pytestmark = pytest.mark.django_db


def speaks(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


def your_turn(game, user) -> Notification:
    """The player's your-turn notification of this turn, pending (the game's start wrote one
    for whoever plays first)."""
    note, _ = Notification.objects.update_or_create(
        kind=Note.YOUR_TURN,
        user=user,
        game=game,
        turn=game.turn,
        defaults={"state": Notification.State.PENDING, "next_attempt": outbox.first_attempt()},
    )
    return note


def test_an_italian_and_an_english_player_get_their_turn_email_in_their_own_language(alice, bob):
    speaks(alice, "it"), speaks(bob, "en")
    game = start_geared([alice, bob], target=2000)
    with translation.override("it"):  # whatever the sender's language, the recipient's wins
        for user in (alice, bob):
            assert email.deliver(your_turn(game, user).pk) is True
    italian, english = (next(m for m in mail.outbox if m.to == [u.email]) for u in (alice, bob))
    assert italian.subject.startswith("Tocca a te in "), italian.subject
    assert f"#{game.pk}" in italian.subject
    assert "Ciao Alice," in italian.body and "Gioca il tuo turno: " in italian.body
    html = italian.alternatives[0][0]
    assert '<html lang="it">' in html and "Le tue impostazioni e-mail" in html
    assert english.subject.startswith("Your turn in "), english.subject
    assert "Hello Bob," in english.body and "Play your turn: " in english.body
    assert "Tocca" not in english.body and '<html lang="en">' in english.alternatives[0][0]


def test_an_italian_and_an_english_player_get_their_turn_push_in_their_own_language(alice, bob):
    speaks(alice, "it"), speaks(bob, "en")
    game = start_geared([alice, bob], target=2000)
    with translation.override("it"):
        italian = push_payload(your_turn(game, alice))
        english = push_payload(your_turn(game, bob))
    assert italian["title"].startswith("Tocca a te in "), italian
    assert english["title"].startswith("Your turn in "), english
    # With no line of the log to show, the push says so in the player's words.
    with translation.override("en"):
        note = Notification.objects.create(
            kind=Note.ABORTED, user=alice, game=game, next_attempt=outbox.first_attempt()
        )
        assert push_payload(note)["body"] == "Un moderatore ha interrotto la partita."
    assert str(PUSH_BODY[Note.ABORTED]) == "A moderator stopped the game."


def test_an_invitation_to_an_address_with_no_account_is_in_the_inviters_language(
    alice, bob, django_capture_on_commit_callbacks
):
    speaks(alice, "it"), speaks(bob, "en")
    by_alice = tables.create_game(alice, tables.NewGame("geared", 3))
    by_bob = tables.create_game(bob, tables.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):
        rows = [
            tables.invite(alice, by_alice.pk, "dora@example.com"),
            tables.invite(bob, by_bob.pk, "erin@example.com"),
        ]
    for row in rows:
        assert email.send_invitation(row.pk) is True
    to_dora, to_erin = (
        next(m for m in mail.outbox if m.to == [a])
        for a in ("dora@example.com", "erin@example.com")
    )
    assert to_dora.subject.startswith("Sei invitato a giocare a "), to_dora.subject
    assert "Ciao," in to_dora.body and "ti invita a una partita di" in to_dora.body
    assert "Registrati (ci vuole un minuto)" in text_part(to_dora.message())
    assert to_erin.subject.startswith("You are invited to play "), to_erin.subject
    assert "invites you to a game of" in to_erin.body


def test_an_invitation_by_username_is_in_the_invitees_language(
    alice, bob, django_capture_on_commit_callbacks
):
    speaks(alice, "it"), speaks(bob, "en")
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):
        row = tables.invite(alice, table.pk, "bob")
    assert email.send_invitation(row.pk) is True
    assert mail.outbox[-1].subject.startswith("You are invited to play ")
    assert "Hello Bob," in mail.outbox[-1].body
    row = Invitation.objects.select_related("game", "inviter", "user").get(pk=row.pk)
    assert invitation_payload(row)["body"] == "Open the table to join it."
    speaks(bob, "it")
    row.user.refresh_from_db()
    assert invitation_payload(row)["body"] == "Apri il tavolo per unirti."


def test_the_unsubscribe_page_is_in_the_language_of_whoever_opens_it(alice):
    speaks(alice, "en")
    url = reverse("unsubscribe", args=[unsubscribe_token(alice, "notify_reminder")])
    client = client_for(alice)
    client.logout()
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9").content.decode()
    assert "Annullare l'iscrizione?" in italian or "Annullare l&#x27;iscrizione?" in italian
    assert "i promemoria delle scadenze" in italian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Unsubscribe?" in english and "deadline reminders" in english


def test_a_password_reset_asked_from_an_english_page_is_mailed_in_the_accounts_language(
    alice, django_capture_on_commit_callbacks
):
    """allauth's account e-mails (its own templates and catalogs) follow the account's
    language, whatever the page it was asked from; to an address with no account, the page's."""
    from django.test import Client

    from games.models import AccountMail

    speaks(alice, "it")
    with django_capture_on_commit_callbacks(execute=False):
        Client().post(
            reverse("account_reset_password"),
            {"email": alice.email},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    row = AccountMail.objects.get(to=alice.email)
    with translation.override("it"):
        expected = translation.gettext("Password Reset Email")
    assert expected != "Password Reset Email" and expected in row.subject, row.subject
