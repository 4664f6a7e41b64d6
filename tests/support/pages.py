"""Reading what the site answers: a response's text, the version a game page shows, a section
of My games, the game's poll and its key, and how many queries a page costs."""

from __future__ import annotations

import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse


def text(response) -> str:
    return response.content.decode()


def page_version(page: str) -> int:
    """The version the page shows: in its move forms (the hidden `version` input) and on the
    game's element (`data-version`, or the poll URL's `v`); they must agree."""
    found = set(re.findall(r'name="version" value="(\d+)"', page))
    found |= set(re.findall(r'data-version="(\d+)"', page))
    found |= set(re.findall(r'data-poll-url="[^"]*\?v=(\d+)"', page))
    assert len(found) == 1, f"expected one version on the page, found {found}"
    return int(found.pop())


def section(page: str, title: str) -> str:
    """The HTML of the <section> whose heading starts with `title`."""
    found = re.search(rf"<section>\s*<h2>{title}.*?</section>", page, re.S)
    assert found, f"no section {title!r}"
    return found.group(0)


def count_queries(client: Client, url: str, **params) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code == 200, url
    return len(queries)


def page_key(client, game) -> str:
    page = text(client.get(reverse("game", args=[game.pk])))
    return re.search(r'data-poll-key="([^"]*)"', page).group(1)


def poll(client, game, v, key=None, **params):
    """The game's poll as a page polls it: the version it shows (`v`), its key (`k`) if any,
    and any other parameter (`c` the chat seen, `t` a spectator's token, `h` hidden...)."""
    query = {"v": v, **({"k": key} if key is not None else {}), **params}
    return client.get(reverse("game_poll", args=[game.pk]), query)
