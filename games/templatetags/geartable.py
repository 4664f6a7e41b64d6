import functools

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

from games import links

register = template.Library()


@register.simple_tag
def cached_url(name: str, *args) -> str:
    """`{% cached_url 'game_log' game.pk %}`: `{% url %}`, for a route of ours whose arguments
    are ids (or none), reversed once per process (games/links.py)."""
    return links.url(name, *args)


@register.simple_tag
def cached_static(path: str) -> str:
    """`{% cached_static 'css/site.css' %}`: `{% static %}`, looked up once per process."""
    return links.static(path)


@register.filter
def get_item(mapping, key):
    """`{{ links|get_item:card.id }}`: a dict lookup by a variable key."""
    return mapping.get(key) if mapping else None


@register.filter
def card(c: dict, icons_url: str) -> str:
    """`{{ c|card:icons_url }}`: a Geared card as HTML (templates/games/_card.html). A card's
    look depends only on its id and, for a placed wild, its declared level, so each is rendered
    once per process: a page shows dozens of cards, and this was most of its rendering time."""
    return _card_html(c["id"], c.get("level"), icons_url, tuple(sorted(c.items())))


@functools.lru_cache(maxsize=2048)
def _card_html(card_id: int, level: int | None, icons_url: str, items: tuple) -> str:
    html = get_template("games/_card.html").render({"c": dict(items), "icons_url": icons_url})
    return mark_safe(html)  # noqa: S308 - our own template's output, escaped when rendered
