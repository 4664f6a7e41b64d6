"""Issue 13, point 6: names other players see cannot pass for someone else. Display names and
usernames are trimmed, limited in length, and may not copy another player's username (or, for
a username, another player's display name), a bot's name or "You"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def set_name(client, name: str):
    return client.post(reverse("profile"), {"display_name": name, "time_zone": "UTC"})


def errors(response) -> list[str]:
    return response.context["form"].errors.get("display_name", [])


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bob", "another player's username"),
        ("  BOB ", "another player's username"),
        ("ｂｏｂ", "another player's username"),  # full-width letters read as "bob"
        ("b\u043eb", "looks like another player's username"),  # a Cyrillic о (issue 22)
        ("\u0412\u041e\u0412", "looks like another player's username"),  # Cyrillic ВОВ
        ("\u0392\u03bfb", "looks like another player's username"),  # Greek Β and ο
        ("You", "would pass for someone else"),
        ("you", "would pass for someone else"),
        ("Greedy bot", "would pass for someone else"),
        ("Greedy bot 2", "would pass for someone else"),
        ("random BOT 3", "would pass for someone else"),
        ("Empty seat", "would pass for someone else"),
        ("x" * 31, "at most 30 characters"),
        ("Al\u200bice", "control or invisible characters"),
        ("\u202eecilA", "control or invisible characters"),
    ],
)
def test_a_display_name_that_passes_for_someone_else_is_refused(
    alice_client, alice, bob, name, message
):
    response = set_name(alice_client, name)
    assert response.status_code == 200
    assert any(message in e for e in errors(response)), errors(response)
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_display_name_is_trimmed_and_its_spaces_collapsed(alice_client, alice):
    assert set_name(alice_client, "  Alice   the   Great ").status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice the Great"


def test_ones_own_username_and_an_empty_name_are_fine(alice_client, alice):
    assert set_name(alice_client, "ALICE").status_code == 302
    assert set_name(alice_client, "").status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "" and alice.name == "alice"


SIGNUP = {
    "email": "dora@example.com",
    "password1": "a-long-passphrase-9",
    "password2": "a-long-passphrase-9",
}


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("you", "would pass for someone else"),
        ("bot2", "would pass for someone else"),
        ("zed", "another player's name"),  # bob shows as "Zed"
        ("d" * 31, "at most 30 characters"),
    ],
)
def test_a_username_follows_the_same_rules(client, bob, username, message, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    bob.display_name = "Zed"
    bob.save(update_fields=["display_name"])
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": username})
    assert response.status_code == 200
    assert any(message in e for e in response.context["form"].errors["username"])
    assert not User.objects.filter(email="dora@example.com").exists()


@pytest.mark.parametrize(
    "username",
    ["\u0430lice", "\u0430l\u0456\u0441\u0435", "\u0410LICE", "\u03b1lice"],
    ids=["cyrillic-a", "four-cyrillic", "cyrillic-capitals", "greek-alpha"],
)
def test_a_look_alike_of_another_players_username_cannot_sign_up(client, alice, username, settings):
    """Issue 22: "аlice" with a Cyrillic а reads as alice on every page."""
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": username})
    assert response.status_code == 200
    assert any(
        "looks like another player" in e for e in response.context["form"].errors["username"]
    )
    assert not User.objects.filter(email="dora@example.com").exists()


def test_a_look_alike_of_another_players_display_name_cannot_sign_up(client, bob, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    bob.display_name = "Zed"
    bob.save(update_fields=["display_name"])
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "z\u0435d"})
    assert response.status_code == 200
    assert any(
        "looks like another player" in e for e in response.context["form"].errors["username"]
    )


def test_names_in_other_scripts_are_welcome(alice_client, alice, client, settings):
    """Only look-alikes are refused: a Cyrillic or Greek name of one's own is fine."""
    assert set_name(alice_client, "\u0410\u043b\u0438\u0441\u0430").status_code == 302  # Алиса
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "\u03b6\u03c9\u03ae"})
    assert response.status_code == 302, response.context["form"].errors


def test_a_fine_username_signs_up(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "dora"})
    assert response.status_code == 302
    assert User.objects.filter(username="dora").exists()
