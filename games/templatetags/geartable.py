from django import template

from games import links
from games.pages import geared_html

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
    """`{{ c|card:icons_url }}`: a Geared card as HTML (templates/games/_card.html), rendered
    once per card and process (games/pages/geared_html.py)."""
    return geared_html.card(c, icons_url)
