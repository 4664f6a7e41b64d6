"""Geartable's own deployment checks (`manage.py check --deploy`), registered in config/apps.py."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}

W001 = Warning(
    "The cache is each process's own memory (CACHE_URL is not set), so with several web "
    "processes each one counts log-in failures and rate limits on its own: an account then "
    "locks only after up to 5 failures per process (5 × the number of processes), an address "
    "after up to 10 a minute per process.",
    hint="Set CACHE_URL=redis://… to one Redis shared by every web process. With exactly one "
    "web process (gunicorn -w 1) the locks hold and this warning may be ignored.",
    id="geartable.W001",
)


@register(Tags.security, Tags.caches, deploy=True)
def check_shared_cache(app_configs=None, **kwargs) -> list[Warning]:
    """With DEBUG off (production), a per-process cache is a warning: the README's production
    runs several gunicorn workers, and nothing here can tell how many will run."""
    if settings.DEBUG:
        return []
    if settings.CACHES["default"]["BACKEND"] in PER_PROCESS_CACHES:
        return [W001]
    return []
