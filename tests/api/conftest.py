"""The API's tests: alice's client, sending a token of hers (tests/support/api.py)."""

from __future__ import annotations

import pytest

from tests.support.api import api_client, token_for


@pytest.fixture
def alice_api(alice):
    return api_client(token_for(alice))
