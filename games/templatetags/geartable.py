import functools

from django import template
from django.conf import settings
from django.core.cache import cache
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext_lazy

from games import words
from games.engines.geared.cards import PART_TYPES
from games.models import ModerationAction, Status
from games.reads import dates, links

register = template.Library()


@register.simple_tag
def cached_url(name: str, *args) -> str:
    """`{% cached_url 'game_log' game.pk %}`: `{% url %}`, for a route of ours whose arguments
    are ids (or none), reversed once per process (games/reads/links.py)."""
    return links.url(name, *args)


@register.simple_tag
def abort_note(game) -> dict | None:
    """`{% abort_note game as aborted %}`: for a game a moderator aborted, why (the reason
    given in the moderation log; the page shows it to the game's players, not to spectators),
    or that it was called off; else None. One query, only on an aborted game's page."""
    if game.status != Status.ABORTED:
        return None
    reason = (
        ModerationAction.objects.filter(game_id=game.pk, action="abort game")
        .order_by("-pk")
        .values_list("reason", flat=True)
        .first()
    )
    # No record: a table its creator called off (actions.tables.leave_game), not a moderator.
    return {"by_moderator": reason is not None, "reason": (reason or "").strip()}


@register.simple_tag
def player(who, name=None) -> str:
    """`{% player seat %}`, `{% player user %}`, `{% player seat "You" %}`: games/links.player."""
    return links.player(who, name)


@register.simple_tag
def stream_url(game_id: int | None = None) -> str:
    """`{% stream_url game.pk %}`: the game page's event stream, `{% stream_url %}`: the site
    frame's; "" without a stream process (GEARTABLE_STREAM_URL empty: the page polls); a path
    on the page's own origin where it is "/"."""
    base = settings.GEARTABLE_STREAM_URL
    if not base:
        return ""
    base = base.rstrip("/")
    return f"{base}/events/game/{int(game_id)}/" if game_id is not None else f"{base}/events/me/"


@register.simple_tag
def cached_static(path: str) -> str:
    """`{% cached_static 'css/site.css' %}`: `{% static %}`, looked up once per process."""
    return links.static(path)


@register.filter
def get_item(mapping, key):
    """`{{ links|get_item:card.id }}`: a dict lookup by a variable key."""
    return mapping.get(key) if mapping else None


@register.filter(expects_localtime=True)
def day(value) -> str:
    """`{{ when|day }}`: "3 Dec 2026", in the reader's language (games/reads/dates.py)."""
    return dates.day(value)


@register.filter(expects_localtime=True)
def day_month(value) -> str:
    """`{{ when|day_month }}`: "3 Dec"."""
    return dates.day_month(value)


@register.filter(expects_localtime=True)
def day_time(value) -> str:
    """`{{ when|day_time }}`: "3 Dec 2026, 14:05"."""
    return dates.day_time(value)


@register.filter(expects_localtime=True)
def day_month_time(value) -> str:
    """`{{ when|day_month_time }}`: "3 Dec, 14:05"."""
    return dates.day_month_time(value)


_CARDS: dict[tuple, tuple[dict, SafeString]] = {}
_CARDS_KEPT = 4096  # 108 cards, a few levels each for the wilds, per sprite URL: never reached


@register.filter
def card(c: dict, icons_url: str) -> SafeString:
    """`{{ c|card:icons_url }}`: a Geared card as HTML, drawn by templates/games/_card.html (the
    only copy of a card's markup). A page shows dozens of cards and a card's look depends only
    on its fields (id and, for a placed wild, its declared level), so each is rendered once per
    process, sprite URL and language (its names are translated); the cache is keyed cheaply and
    checked on a hit."""
    key = (c["id"], c.get("level"), icons_url, translation.get_language())
    found = _CARDS.get(key)
    if found is not None and found[0] == c:
        return found[1]
    html = mark_safe(  # noqa: S308 - our own template's output, escaped when rendered
        get_template("games/_card.html").render({"c": c, "icons_url": icons_url})
    )
    if len(_CARDS) < _CARDS_KEPT:
        _CARDS[key] = (dict(c), html)
    return html


@register.filter
def gears(colours: list[str]) -> str:
    """`{{ robot.gears|gears }}`: Out of Gears gears as HTML (templates/games/_gear.html, one
    after the other), each colour rendered once per process: a page shows dozens of them."""
    language = translation.get_language()
    return mark_safe("".join(_gear_html(g, language) for g in colours))  # noqa: S308 - see _gear_html


# A gear's colour as a player reads it (the glossary's words); the class keeps the engine's.
COLOUR_NAMES = {
    "red": pgettext_lazy("gear colour", "red"),
    "blue": pgettext_lazy("gear colour", "blue"),
    "green": pgettext_lazy("gear colour", "green"),
    "yellow": pgettext_lazy("gear colour", "yellow"),
    "purple": pgettext_lazy("gear colour", "purple"),
    "orange": pgettext_lazy("gear colour", "orange"),
    "black": pgettext_lazy("gear colour", "black"),
    "white": pgettext_lazy("gear colour", "white"),
}


@register.filter
def colour_name(colour: str) -> str:
    """`{{ colour|colour_name }}`: a robot's or gear's colour as the reader says it."""
    return str(COLOUR_NAMES.get(colour, colour))


@register.filter
def part_label(part_type: str) -> str:
    """`{{ slot|part_label }}`: a Geared part type ("frame", "handlebars", "wheels": also its
    icon's id) as the reader names it ("Telaio")."""
    return words.part_name(PART_TYPES.index(part_type)) if part_type in PART_TYPES else part_type


@functools.lru_cache(maxsize=256)
def _gear_html(colour: str, language: str | None) -> str:
    """One gear in one language (the caller's: the cache is keyed by it)."""
    name = str(COLOUR_NAMES.get(colour, colour))
    return get_template("games/_gear.html").render({"g": colour, "name": name})


# How long a game's fragment as all its spectators see it is kept (games/views/game.py,
# `shared_key`). The key holds the game's version, which every change a page shows moves: this
# bounds only what moves without it ("due in …", a player's new display name).
SHARED_SECONDS = 30


@register.tag
def shared_fragment(parser, token):
    """`{% shared_fragment key %}…{% endshared_fragment %}`: drawn once per `key` and kept
    (SHARED_SECONDS) for everyone whose page has that key; drawn each time when the key is
    empty. The view decides who shares one (games/views/game.py, `shared_key`)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("shared_fragment takes one argument: the key")
    nodelist = parser.parse(("endshared_fragment",))
    parser.delete_first_token()
    return _SharedFragment(nodelist, parser.compile_filter(bits[1]))


class _SharedFragment(template.Node):
    def __init__(self, nodelist, key):
        self.nodelist, self.key = nodelist, key

    def render(self, context) -> str:
        key = self.key.resolve(context)
        if not key:
            return self.nodelist.render(context)
        html = cache.get(key)
        if html is None:
            html = self.nodelist.render(context)
            cache.set(key, html, SHARED_SECONDS)
        return html  # a node's output is not escaped again: it is the template's own
