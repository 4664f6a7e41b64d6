"""Issue 28.3: personal access tokens on the profile — named, shown once, kept as a hash,
scoped, expiring, revocable, limited in number and in rate; opening the API only."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import tokens
from accounts.models import ApiToken
from games.api import streams as api_stream
from tests.support.api import api_client, token_for
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"


def test_28_3_a_token_is_shown_once_and_kept_only_as_a_hash(alice):
    browser = client_for(alice)
    response = browser.post(
        reverse("token_create"), {"name": "my bot", "scopes": ["read", "play"], "days": "90"}
    )
    assert response.status_code == 201
    assert response["Cache-Control"].startswith("max-age=0")
    token = re.search(r">(gt_[0-9a-f]{12}_[\w-]{43})<", response.content.decode())[1]
    row = ApiToken.objects.get(user=alice)
    assert (row.name, row.scope_set) == ("my bot", {"read", "play"})
    assert timedelta(days=89) < row.expires - timezone.now() <= timedelta(days=90)
    secret = token.split("_", 2)[2]
    assert row.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(pk=row.pk).values().get())
    # The profile lists it by its public part only; the secret is never shown again.
    profile = browser.get(reverse("profile")).content.decode()
    assert f"gt_{row.key}_" in profile and secret not in profile
    assert api_client(token).get(ME).json()["username"] == "alice"


@pytest.mark.parametrize(
    "post",
    [
        {"name": "", "scopes": ["read"], "days": "30"},
        {"name": "x", "days": "30"},
        {"name": "x", "scopes": ["bot"], "days": "30"},
        {"name": "x", "scopes": ["read"], "days": "7"},
        {"name": "x" * 61, "scopes": ["read"], "days": "30"},
    ],
)
def test_28_3_a_bad_token_form_is_refused_and_stores_nothing(alice, post):
    response = client_for(alice).post(reverse("token_create"), post)
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_28_3_at_most_twenty_tokens_each(alice):
    for n in range(tokens.MAX_TOKENS):
        token_for(alice, name=f"t{n}")
    with pytest.raises(tokens.TokenError):
        token_for(alice)
    response = client_for(alice).post(
        reverse("token_create"), {"name": "one more", "scopes": ["read"], "days": "0"}
    )
    assert response.status_code == 400
    assert "revoke one first" in response.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == tokens.MAX_TOKENS


def test_28_3_revoked_and_expired_tokens_are_refused(alice, bob):
    revoked, expired, kept = token_for(alice), token_for(alice), token_for(alice)
    row = ApiToken.objects.get(key=revoked[3:15])
    # Bob cannot revoke Alice's token; Alice can.
    client_for(bob).post(reverse("token_revoke", args=[row.pk]))
    assert ApiToken.objects.filter(pk=row.pk).exists()
    client_for(alice).post(reverse("token_revoke", args=[row.pk]))
    assert not ApiToken.objects.filter(pk=row.pk).exists()
    ApiToken.objects.filter(key=expired[3:15]).update(expires=timezone.now())
    for token in (revoked, expired, kept[:-1] + ("A" if kept[-1] != "A" else "B"), "gt_x", ""):
        response = api_client(token).get(ME)
        assert response.status_code == 401, token
        assert response.json()["detail"]
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert api_client(kept).get(ME).status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert api_client(kept).get(ME).status_code == 401


def test_28_3_last_used_is_written_at_most_once_a_minute(alice, django_assert_num_queries):
    token = token_for(alice)
    client = api_client(token)
    with django_assert_num_queries(2):  # the token with its user; "last used" written
        client.get(ME)
    first = ApiToken.objects.get(user=alice).last_used
    with django_assert_num_queries(1):
        client.get(ME)
    assert ApiToken.objects.get(user=alice).last_used == first
    ApiToken.objects.update(last_used=first - tokens.LAST_USED_EVERY)
    client.get(ME)
    assert ApiToken.objects.get(user=alice).last_used > first


def test_28_3_a_token_opens_no_page_and_not_the_admin(alice):
    alice.is_staff = alice.is_superuser = True
    alice.save(update_fields=["is_staff", "is_superuser"])
    client = api_client(token_for(alice))
    for url in (reverse("my_games"), reverse("profile"), "/admin/"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert "login" in response["Location"], url
    assert "sessionid" not in client.cookies
    # Nor can it act on a page's form (a POST without a session goes to the log-in page or is
    # refused by CSRF).
    assert client.post(reverse("token_create"), {"name": "x"}).status_code in (302, 403)
    assert ApiToken.objects.count() == 1


def test_28_3_rate_per_account_429_with_retry_after(alice, bob, settings):
    settings.GEARTABLE_API_RATE = 3
    settings.GEARTABLE_API_RATE_SECONDS = 3600
    first, second = api_client(token_for(alice)), api_client(token_for(alice))
    assert [first.get(ME).status_code for _ in range(3)] == [200, 200, 200]
    refused = first.get(ME)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert "wait" in refused.json()["detail"]
    # All of an account's tokens share its rate: a second token is no way round it.
    assert second.get(ME).status_code == 429
    assert api_client(token_for(bob)).get(ME).status_code == 200  # another account's own


BAD = "gt_" + "0" * 12 + "_" + "A" * 43  # well formed, nobody's


def test_28_3_an_address_trying_tokens_that_are_not_valid_is_refused_before_a_lookup(
    alice, settings, django_assert_num_queries
):
    settings.GEARTABLE_API_BAD_TOKEN_RATE = 3
    settings.GEARTABLE_API_RATE_SECONDS = 3600
    good = token_for(alice)
    guesser = Client(headers={"Authorization": f"Bearer {BAD}"}, REMOTE_ADDR="203.0.113.9")
    assert [guesser.get(ME).status_code for _ in range(3)] == [401, 401, 401]
    with django_assert_num_queries(0):  # not even looked up
        refused = guesser.get(ME)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 3600
    assert "not valid" in refused.json()["detail"]
    # From there, even a good token waits for the window; from elsewhere it is not held back.
    here = Client(headers={"Authorization": f"Bearer {good}"}, REMOTE_ADDR="203.0.113.9")
    assert here.get(ME).status_code == 429
    elsewhere = Client(headers={"Authorization": f"Bearer {good}"}, REMOTE_ADDR="203.0.113.10")
    assert elsewhere.get(ME).status_code == 200
    # Calls without a token cost no lookup, and do not count.
    bare = Client(REMOTE_ADDR="203.0.113.11")
    assert {bare.get(ME).status_code for _ in range(5)} == {401}
    assert api_client(good).get(ME, REMOTE_ADDR="203.0.113.11").status_code == 200


def test_28_3_a_stream_opening_counts_its_address_tries_too(settings):
    settings.GEARTABLE_API_BAD_TOKEN_RATE = 2
    settings.GEARTABLE_API_RATE_SECONDS = 3600
    statuses = []
    for _ in range(3):
        with pytest.raises(tokens.Refused) as refused:
            api_stream._read_account(BAD, "203.0.113.12")
        statuses.append(refused.value.status)
    assert statuses == [401, 401, 429]
    with pytest.raises(tokens.Refused) as recheck:  # a stream's re-check is not a try
        api_stream._read_account(BAD, None)
    assert recheck.value.status == 401


def test_28_3_the_session_alone_authenticates_no_api_call(alice):
    browser = client_for(alice)
    assert browser.get(ME).status_code == 401
    assert Client().get(ME).status_code == 401
