"""The cache a test starts with: empty (so the rate limits, the lobby's lists and the live
check's copies never carry over from another test), or Redis as in production."""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Each test starts with an empty cache: fresh rate limits, no cached lists."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.core.cache import cache  # lazily: engine tests run without Django

    cache.clear()


@pytest.fixture
def redis_cache(settings):
    """The cache as in production: Redis (shared by every process), the live cache on; its
    own key prefix per test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/9",
            "KEY_PREFIX": f"test-live-{uuid.uuid4().hex}",
        }
    }
    settings.GEARTABLE_LIVE_CACHE = True
    return settings
