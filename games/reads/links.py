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
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

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


# --- players' names, linked to their pages ------------------------------------------------------


def player(who, name=None) -> SafeString:
    """A seat's or a user's name, linked to its player's page where it is an account's (issue
    27.1): not a bot's, nor an imported record's, nor a deactivated account's (Seat.player_url);
    a bot account's followed by "(a bot by fay)" (issue 28.4). `who` None: the name alone."""
    if who is None:
        return conditional_escape(name or "")
    if hasattr(who, "player_url"):  # a seat
        url, account = who.player_url, (None if who.bot or who.recorded_name else who.user)
    else:  # a user
        url, account = (who.get_absolute_url() if who.is_active else ""), who
    shown = who.name if name is None else name
    linked = format_html('<a class="player-link" href="{}">{}</a>', url, shown) if url else shown
    if account is not None and account.is_bot:  # issue 28.4: whose bot, read without a query
        said = _('%(name)s <span class="bot-by">(a bot by %(owner)s)</span>')
        return format_html(
            said.replace("%(name)s", "{0}").replace("%(owner)s", "{1}"), linked, account.bot_by
        )
    return format_html("{}", linked)


def stand_ins(names: dict[str, str]) -> dict[str, str]:
    """What a sentence is written with in place of each seat's name (the engines' describe()
    take names as text): a mark no name or sentence contains, that `linked` replaces."""
    return {seat: f"\x00{seat}\x00" for seat in names}


def linked(sentence: str, names: dict[str, str], links: dict[str, str]) -> SafeString:
    """A sentence written with `stand_ins(names)`, escaped, each stand-in replaced by its
    seat's name as HTML (`links`: seat -> `player(seat)`; a seat without one: its name as
    text). Only the names become markup: the rest of the sentence is text, whatever it holds."""
    html = str(conditional_escape(sentence))
    for seat, name in names.items():
        html = html.replace(f"\x00{seat}\x00", str(links.get(seat) or conditional_escape(name)))
    return mark_safe(html)  # noqa: S308 - escaped above; the names are format_html's


def sentences(names: dict[str, str], name_links: dict | None):
    """(the names to write sentences with, what finishes each sentence): with `name_links` (a
    page's), stand-ins and `linked`; without (the API, e-mails), the names and the text as
    it is."""
    if name_links is None:
        return names, str
    return stand_ins(names), lambda sentence: linked(sentence, names, name_links)


def name_links(seats) -> dict[str, SafeString]:
    """seat id -> the seat's name as HTML (`player`), for the seats of a started game."""
    return {s.seat_id: player(s) for s in seats if s.position}
