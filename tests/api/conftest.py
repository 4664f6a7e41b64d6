"""The API's tests: tokens made through accounts/tokens.py, and clients that send them."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import tokens


def token_for(user, scopes=("read", "play"), days: int = 30, name: str = "test") -> str:
    return tokens.create(user, name, scopes, days).token


def api_client(token: str | None) -> Client:
    """A client that sends `token` with every call (and no session: it never logged in)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(headers=headers, enforce_csrf_checks=True)


@pytest.fixture
def alice_api(alice):
    return api_client(token_for(alice))
