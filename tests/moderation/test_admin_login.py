"""Issue 13, point 2: the admin has no log-in form of its own; it sends moderators to the
site's log-in, which locks after repeated failures."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.users import PASSWORD

pytestmark = pytest.mark.django_db

ADMIN_LOGIN = "/admin/login/"


def test_the_admin_login_sends_to_the_sites_login_with_next(client):
    response = client.get(f"{ADMIN_LOGIN}?next=/admin/games/game/")
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=%2Fadmin%2Fgames%2Fgame%2F"


def test_an_outside_next_is_replaced_by_the_admin_index(client):
    response = client.get(f"{ADMIN_LOGIN}?next=https://evil.example/")
    assert response["Location"] == f"{reverse('account_login')}?next=%2Fadmin%2F"


def test_a_password_posted_to_the_admin_login_logs_nobody_in(client, moderator):
    response = client.post(ADMIN_LOGIN, {"username": "mod", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index")).status_code == 302


def test_forty_wrong_passwords_then_the_right_one_does_not_get_in(moderator):
    client = Client()
    for _ in range(40):
        client.post(ADMIN_LOGIN, {"username": "mod", "password": "wrong"})
        client.post(reverse("account_login"), {"login": "mod", "password": "wrong"})
    client.post(ADMIN_LOGIN, {"username": "mod", "password": PASSWORD})
    response = client.post(reverse("account_login"), {"login": "mod", "password": PASSWORD})
    # Locked out: per account after 5 failures, per address after 10 a minute (429).
    locked = "Too many failed login attempts" in response.content.decode()
    assert locked or response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index")).status_code == 302


def test_a_moderator_logs_in_through_the_site_and_lands_in_the_admin(moderator):
    client = Client()
    login = client.get(reverse("admin:index"), follow=True)
    assert login.redirect_chain[-1][0].startswith(reverse("account_login"))
    response = client.post(
        f"{reverse('account_login')}?next=/admin/",
        {"login": "mod", "password": PASSWORD, "next": "/admin/"},
    )
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_logged_in_player_is_told_they_have_no_access(client, alice):
    client.force_login(alice)
    response = client.get(reverse("admin:index"), follow=True)
    assert response.status_code == 403
    assert "no access to the moderation pages" in response.content.decode()
