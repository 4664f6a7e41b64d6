"""Shared helpers for the HTTP-level tests: set up Geared games through the one write path,
read what a page shows (its version, its action payloads, its links), and choose moves the way
a greedy player would."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import parse_qs, urlsplit

from django.test import Client
from django.urls import reverse

from games.actions import moves
from games.engines.geared import engine
from games.engines.geared.bots import greedy_bot
from games.models import Game, Seat
from games.pages.geared_ui import destination

# Card ids in the query strings of selection links (games/pages/geared_ui.py: Selection).
CARD_PARAMS = ("pick", "card", "target", "move")
# Card ids in an action (docs/engine-geared.md: Actions); "builds"/"to" are build ids.
ACTION_CARD_FIELDS = ("card", "target", "mine", "theirs")


def seat_to_act(game: Game) -> Seat:
    """The seat whose turn it is, by the engine's stored state."""
    seat_id = engine.current_seat(game.state)
    return game.seats.select_related("user").get(position=int(seat_id))


def greedy_choice(game: Game, seat: Seat, salt: int = 0) -> dict:
    """What the greedy bot would play for this seat, from what the seat may see and do."""
    view = engine.view(game.state, seat.seat_id)
    legal = engine.legal_actions(game.state, seat.seat_id)
    return greedy_bot(view, legal, random.Random(f"{game.pk}:{game.version}:{salt}"))


def advance(game: Game, count: int) -> Game:
    """Play `count` greedy moves through moves.submit_action (people's seats only)."""
    for _ in range(count):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = seat_to_act(game)
        moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    game.refresh_from_db()
    return game


def move_url(game: Game) -> str:
    return reverse("game_move", args=[game.pk])


def post_move(client: Client, game: Game, action, version, *, htmx: bool = False, **extra):
    data = {"action": action if isinstance(action, str) else json.dumps(action)}
    if version is not None:
        data["version"] = str(version)
    if htmx:
        extra["HTTP_HX_REQUEST"] = "true"
    return client.post(move_url(game), data, **extra)


# --- reading a page ------------------------------------------------------------------------


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


def payloads(page: str) -> list[dict]:
    """Every action the page offers (the hidden `action` inputs of its move forms)."""
    return [
        json.loads(html.unescape(p)) for p in re.findall(r'name="action" value="([^"]*)"', page)
    ]


def hx_links(page: str) -> list[str]:
    return [html.unescape(u) for u in re.findall(r'hx-get="([^"]*)"', page)]


def data_cards(page: str) -> set[int]:
    return {int(c) for c in re.findall(r'data-card="(\d+)"', page)}


def link_card_ids(url: str) -> set[int]:
    query = parse_qs(urlsplit(url).query)
    ids = {int(x) for p in CARD_PARAMS for v in query.get(p, []) for x in v.split(",") if x}
    # A preview's destination names a part on the table as "p<id>" (builds are "b<id>").
    tokens = [t for v in query.get("to", []) for t in v.split(",")]
    return ids | {int(t[1:]) for t in tokens if t.startswith("p") and t[1:].isdecimal()}


def action_card_ids(action: dict) -> set[int]:
    ids = set(action.get("cards", []))
    ids.update(action[f] for f in ACTION_CARD_FIELDS if f in action)
    return ids


def error_text(page: str) -> str:
    """The text of the page's `.error` element."""
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    assert found, "the page shows no error"
    return html.unescape(found.group(1)).strip()


def selection_for(action: dict) -> str:
    """The query string a player builds by tapping cards, then a destination, until the page
    previews `action` with its one Play button."""
    query = _selection_of(action)
    query += ("&" if query != "?" else "") + "to=" + ",".join(destination(action))
    if "level" in action:
        query += f"&level={action['level']}"
    return query


def choices_for(action: dict) -> str:
    """The query string of the step before: the destinations `action` is one of."""
    return _selection_of(action)


def _selection_of(action: dict) -> str:
    kind = action["type"]
    if kind == "play":
        return "?pick=" + ",".join(map(str, action["cards"]))
    if kind == "rearrange":
        return f"?move={action['card']}"
    if kind in ("remove", "discard"):
        return f"?card={action['card']}"
    if kind == "steal":
        return f"?card={action['card']}&target={action['target']}"
    if kind == "swap":
        return f"?card={action['card']}&target={action['mine']}"
    return "?"  # pass: offered without a selection
