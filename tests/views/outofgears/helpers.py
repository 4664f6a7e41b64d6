"""Shared helpers for the Out of Gears HTTP-level tests: set up tables through the lobby's views or
the one write path, post programs the way the page's form does, wait for a turn to resolve, and
read what a page shows."""

from __future__ import annotations

import html
import re

from django.test import Client
from django.urls import reverse

from games.engines.outofgears.common import COLOURS
from games.models import Game, Move
from tests.support.pages import text
from tests.support.waiting import wait_for

ACTION_LABELS = {"harvest": "Harvest", "attack": "Attack", "trap": "Trap"}


# --- setting up a table ------------------------------------------------------------------------


def create_by_lobby(client: Client, **fields) -> Game:
    """POST the lobby's "new game" form for Out of Gears; the game the creator lands on."""
    data = {
        "kind": "outofgears",
        "seat_count": "2",
        "turn_seconds": "0",
        "bots": "0",
        "bot_kind": "greedy",
        "target": "1000",
    }
    robots = fields.pop("robots", ())
    data.update({k: str(v) for k, v in fields.items()})
    data["robots"] = [str(r) for r in robots]
    response = client.post(reverse("create_game"), data)
    assert response.status_code == 302, text(response)
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert response.url == game.get_absolute_url()
    return game


def join_by_link(client: Client, game: Game, robots=()) -> None:
    response = client.post(
        reverse("game_join", args=[game.pk]),
        {"token": game.join_token, "robot": [str(r) for r in robots]},
    )
    assert response.status_code == 302
    assert response.url == game.get_absolute_url()


def start_by_view(client: Client, game: Game) -> Game:
    response = client.post(reverse("game_start", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_active, "the game did not start"
    return game


# --- programs ----------------------------------------------------------------------------------


def program(*entries: tuple[int, str, int]) -> dict:
    """A program action from (robot, action, number) triples."""
    return {
        "type": "program",
        "programs": [{"robot": r, "action": a, "number": n} for r, a, n in entries],
    }


def form_fields(action: dict, version: int | str) -> dict:
    """The program form's fields for `action`, as the page's form posts them."""
    data = {"version": str(version), "program": "1"}
    for entry in action["programs"]:
        data[f"robot-{entry['robot']}-action"] = entry["action"]
        data[f"robot-{entry['robot']}-number"] = str(entry["number"])
    return data


def post_program(client: Client, game: Game, action: dict, version, *, htmx: bool = True):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("game_move", args=[game.pk]), form_fields(action, version), **extra)


def sentence(entry: dict) -> str:
    """How the page words one robot's program ("Trap junkyard 7", "Attack Blue", "Defend")."""
    action, number = entry["action"], entry["number"]
    if action == "attack":
        return "Defend" if number == entry["robot"] else f"Attack {COLOURS[number].capitalize()}"
    return f"{ACTION_LABELS[action]} junkyard {number}"


def resolve_moves(game: Game) -> int:
    return Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count()


def wait_for_turn_after(game: Game, turn: int, *, seconds: float = 10.0) -> Game:
    """Wait until the worker has resolved `turn` (the game moved past it); the fresh game row."""

    def resolved():
        fresh = Game.objects.get(pk=game.pk)
        return fresh if fresh.turn > turn or fresh.is_over else None

    return wait_for(resolved, seconds=seconds, what=f"turn {turn} of game {game.pk} to resolve")


# --- reading a page ------------------------------------------------------------------------------


def offered(page: str) -> dict[int, dict[str, set]]:
    """The program form's radio buttons: robot -> {"actions": {...}, "numbers": {...}}."""
    out: dict[int, dict[str, set]] = {}
    for robot, field, value in re.findall(
        r'<input type="radio" name="robot-(\d+)-(action|number)" value="([^"]*)"', page
    ):
        slot = out.setdefault(int(robot), {"actions": set(), "numbers": set()})
        slot["actions" if field == "action" else "numbers"].add(
            value if field == "action" else int(value)
        )
    return out


def checked(page: str) -> dict[str, str]:
    """The checked radio buttons of the program form: field name -> value."""
    return dict(
        re.findall(
            r'<input type="radio" name="(robot-\d+-(?:action|number))" value="([^"]*)"'
            r"[^>]*\bchecked\b",
            page,
        )
    )


def submitted_line(page: str) -> str:
    """The "Submitted: …" line, as text (empty when the page shows none)."""
    found = re.search(r'<p class="current-program">(.*?)</p>', page, re.S)
    return plain(found.group(1)) if found else ""


def story_section(page: str) -> str:
    found = re.search(r'<section class="story".*?</section>', page, re.S)
    assert found, "the page has no story section"
    return found.group(0)


def revealed(page: str) -> list[str]:
    """The story's revealed programs, as text ("3 Trap junkyard 7")."""
    block = re.search(r'<ul class="revealed">(.*?)</ul>', page, re.S)
    if not block:
        return []
    return [plain(li) for li in re.findall(r"<li>(.*?)</li>", block.group(1), re.S)]


def error_text(page: str) -> str:
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    assert found, "the page shows no error"
    return plain(found.group(1))


def plain(fragment: str) -> str:
    """Text of an HTML fragment, tags removed (inline ones, as a name's link, without a
    space: "Blue (Bob)") and spaces collapsed."""
    inline = re.sub(r"</?(?:a|abbr|b|em|i|span|strong|time)\b[^>]*>", "", fragment)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def gear_count(page: str) -> int:
    return len(re.findall(r'<span class="gear gear-', page))


def public_gear_count(state: dict) -> int:
    """The gears anyone may see: on junkyards, robots and circuits (O18), not the reserve."""
    yards = sum(len(g) for g in state["junkyards"].values())
    robots = sum(len(r["gears"]) + len(r["circuit"]) for r in state["robots"].values())
    return yards + robots


def has_story_heading(html: str, turn: int) -> bool:
    """The story section's heading for `turn` ("Turn 3", with or without its "new" badge), or
    the full log's ("Turn 3 · Bob" and its time, issue 27.5)."""
    return (
        re.search(rf"<h2>Turn {turn}( <span class=\"badge badge-new\">new</span>)?</h2>", html)
        is not None
        or re.search(
            rf"<h2 id=\"turn-\d+-title\">Turn {turn}(?!\d)[^<]*(<time[^>]*>[^<]*</time>)?</h2>",
            html,
        )
        is not None
    )
