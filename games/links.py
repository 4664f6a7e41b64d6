"""Our own URLs, reversed once per process instead of on every use.

reverse() looks the route up and checks its pattern on every call (~25 µs); a game page draws
about twenty URLs (the site's frame, the game's own links). A route without arguments has one
URL; a route whose arguments are integer ids (a game's pages) is reversed once with stand-in
ids, which each call replaces. Both are keyed by the script prefix and the URLconf, as
reverse() depends on them, and forgotten when a test changes the settings.
"""

from __future__ import annotations

import functools

from django.core.signals import setting_changed
from django.templatetags.static import static as _static
from django.urls import get_script_prefix, get_urlconf, reverse

# Stand-ins for the ids of a route's arguments: numbers no URL of ours otherwise contains.
_STAND_INS = (987654321, 987654322, 987654323)


def url(name: str, *args) -> str:
    """reverse(name, args=args): for integer ids (or none) by the route's pattern, for a few
    fixed words (a game's kind: the rules) as a whole."""
    if args and all(type(a) is str for a in args):
        return _with_words(name, args, get_script_prefix(), get_urlconf())
    if len(args) > len(_STAND_INS) or any(type(a) is not int for a in args):
        return reverse(name, args=args)
    pattern = _pattern(name, len(args), get_script_prefix(), get_urlconf())
    if pattern is None:
        return reverse(name, args=args)
    return pattern.format(*args) if args else pattern


@functools.cache
def _pattern(name: str, count: int, prefix: str, urlconf) -> str | None:
    stand_ins = _STAND_INS[:count]
    found = reverse(name, urlconf=urlconf, args=stand_ins)
    if not count:
        return found
    pattern = found.replace("{", "{{").replace("}", "}}")
    for n in stand_ins:
        if pattern.count(str(n)) != 1:
            return None  # the id is not plainly in the URL: reverse it each time
        pattern = pattern.replace(str(n), "{}")
    return pattern


@functools.lru_cache(maxsize=256)
def _with_words(name: str, args: tuple[str, ...], prefix: str, urlconf) -> str:
    return reverse(name, urlconf=urlconf, args=args)


@functools.cache
def static(path: str) -> str:
    """The URL of a static file of ours (the manifest's hashed name, in production)."""
    return _static(path)


def _forget(**kwargs) -> None:
    _pattern.cache_clear()
    _with_words.cache_clear()
    static.cache_clear()


setting_changed.connect(_forget)
