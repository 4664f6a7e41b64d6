"""Out of Gears on the web: its lobby settings and robots, its page (junkyards in a ring, the
robots, my program, the story of the last turn), its log and its e-mail stories."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engines.outofgears import engine
from games.engines.outofgears.common import COLOURS
from games.engines.outofgears.text import robot_names
from games.models import Game, Move, Notification
from games.pages.base import Table
from games.pages.outofgears_text import describe, program_sentence
from games.reads import links
from games.words import action_label, colour_name, robot_name

TURN_NOUN = pgettext_lazy("what is due", "program")
MISSED = gettext_lazy("your robot defends")
# The notes box's hint (templates/games/_notes.html): what an Out of Gears player might jot down.
NOTES_HINT = gettext_lazy("Plans, who attacks whom, which junkyard is running dry…")
ACTIONS = ("harvest", "attack", "trap")  # the program cards, in the form's order


# --- the lobby and the seats -------------------------------------------------------------------


def table_context(game: Game) -> dict:
    taken = {r for s in game.table for r in s.robots}
    return {
        "robot_choices": [(n, COLOURS[n]) for n in range(1, 9) if n not in taken],
        # The colours by name in the reader's language (robot_choices keeps them as classes).
        "robot_choice_names": {n: colour_name(COLOURS[n]) for n in range(1, 9)},
    }


# --- the game page -----------------------------------------------------------------------------


def _picked(action: object) -> dict[int, dict]:
    """What a refused program picked, per robot (anything malformed is left out: it only
    pre-checks the form's radio buttons)."""
    entries = action.get("programs") if isinstance(action, dict) else None
    if not isinstance(entries, list):
        return {}
    return {
        e["robot"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("robot"), int)
    }


def last_moves(story: dict) -> tuple[set[int], set[int]]:
    """The robots that gained or gave gears, and the junkyards harvested or trapped, in the last
    turn's story: the board's highlight (issue 27.9). A resolved story is public (O18)."""
    robots: set[int] = set()
    yards: set[int] = set()
    for e in story.get("events", []):
        kind = e["type"]
        if kind == "defend" and e["gear"] is not None:
            robots.update((e["defender"], e["attacker"]))
        elif kind == "attack":
            robots.update(int(r) for r, got in e["took"].items() if got)
            if any(e["took"].values()):
                robots.add(e["target"])
        elif kind in ("trap", "harvest"):
            robots.update(int(r) for r, got in e["took"].items() if got)
            if any(e["took"].values()):
                yards.add(e["junkyard"])
        elif kind == "assemble":
            robots.add(e["robot"])
    return robots, yards


def context(table: Table) -> dict:
    """Junkyards in a ring, robots, my program form, the story of the last turn."""
    view, legal, names, seen = table.view, table.legal, table.names, table.seen
    players = robot_names(view, names)
    written, finish = links.sentences(names, table.links)  # the story's names as links
    story_robots = robot_names(view, written)
    story = view.get("last_story") or {}
    moved_robots, moved_yards = last_moves(story)
    robots = []
    for key in sorted(view["robots"], key=int):
        r = view["robots"][key]
        robots.append(
            {
                "number": int(key),
                **r,
                "name": robot_name(int(key)),
                "player": players[key],
                "submitted": view["submitted"].get(r["seat"], False),
                "mine": int(key) in view["my_robots"],
                "last": int(key) in moved_robots,
            }
        )
    yards = []
    for n in range(1, 9):  # numbers as text: a number printed by a template is localised
        gears = view["junkyards"].get(str(n))
        yards.append(
            {
                "number": str(n),
                "in_play": gears is not None,
                "gears": gears or [],
                "count": str(len(gears or ())),
                "last": n in moved_yards,
            }
        )
    waiting_for = [names.get(s, s) for s, done in view["submitted"].items() if not done]
    return {
        "legal": legal,
        "robots": robots,
        "yards": yards,
        "program_form": _program_form(view, legal, _picked(table.refused)),
        "my_program": [
            {**e, "sentence": program_sentence(e), "colour": COLOURS[e["robot"]]}
            for e in (view.get("my_program") or [])
        ],
        "waiting_for": waiting_for,
        "story_turn": story.get("turn"),
        "story_programs": [
            {
                **e,
                "sentence": program_sentence(e),
                "colour": COLOURS[e["robot"]],
                "player": names.get(e["seat"], ""),
            }
            for e in story.get("revealed", [])
        ],
        "story": [finish(describe(e, story_robots)) for e in story.get("events", [])],
        "story_new": seen is not None and story.get("turn", 0) > seen,
        "ranking": sorted(robots, key=lambda r: -r["points"]),
        "fragment_url": links.url("game_fragment", table.game.pk),
        "resolving": view["all_programmed"] and not view["over"],
    }


def _program_form(view: dict, legal: list[dict], refused: dict) -> list[dict]:
    """The program form offers exactly the actions and numbers legal_actions allows, per robot;
    after a refusal it shows what the player just picked, not what is stored."""
    options: dict[int, dict] = {}
    for action in legal:
        for entry in action["programs"]:
            slot = options.setdefault(entry["robot"], {"actions": [], "numbers": []})
            if entry["action"] not in slot["actions"]:
                slot["actions"].append(entry["action"])
            if entry["number"] not in slot["numbers"]:
                slot["numbers"].append(entry["number"])
    current = refused or {e["robot"]: e for e in (view.get("my_program") or [])}
    return [
        {
            "robot": r,
            "name": robot_name(r),
            "colour": COLOURS[r],
            "actions": [(a, action_label(a)) for a in sorted(opts["actions"], key=ACTIONS.index)],
            "numbers": [(n, COLOURS[n]) for n in sorted(opts["numbers"])],
            # Each number card's colour by name in the reader's language (`numbers` keeps the
            # colour as the card's class).
            "number_names": {n: colour_name(COLOURS[n]) for n in opts["numbers"]},
            "current": current.get(r),
        }
        for r, opts in sorted(options.items())
    ]


def parse_move(post) -> dict | None:
    """The program form: robot-N-action / robot-N-number fields, one pair per robot."""
    if "program" not in post:
        return None
    programs = []
    for key in post:
        if key.startswith("robot-") and key.endswith("-action"):
            robot = key[len("robot-") : -len("-action")]
            try:
                programs.append(
                    {
                        "robot": int(robot),
                        "action": post[key],
                        "number": int(post.get(f"robot-{robot}-number", "")),
                    }
                )
            except ValueError:
                return None
    return {"type": "program", "programs": programs} if programs else None


def refused_query(query) -> str:
    return ""  # the program form keeps its own choices


# --- the log and the e-mails -------------------------------------------------------------------


def log_context(game: Game, me: str | None, names: dict, name_links: dict | None = None) -> dict:
    """The story of every resolved turn, oldest first, with the programs revealed; with
    `name_links` (the page's), the sentences' names are links; without (the API), text."""
    view = engine.view(game.state, me)
    written, finish = links.sentences(names, name_links)
    robots = robot_names(view, written)
    # When each turn resolved (issue 27.5): the resolutions' moves, in order, one query.
    resolved = list(
        game.moves.filter(kind=Move.Kind.RESOLVE).order_by("seq").values_list("created", flat=True)
    )
    if len(resolved) != len(view["story"]):
        resolved = [None] * len(view["story"])  # a record whose moves do not match: no times
    turns = [
        {
            "turn": story["turn"],
            "time": time,
            "programs": [
                f"{robot_name(p['robot'])}: {program_sentence(p)}" for p in story["revealed"]
            ],
            "lines": [finish(describe(e, robots)) for e in story["events"]],
        }
        for story, time in zip(view["story"], resolved, strict=True)
    ]
    return {"lines": None, "turns": turns}


def email_context(note_kind: str, game: Game, me: str | None, names: dict, turn: int) -> dict:
    """The story of the turn just resolved (or of the last one, at the end of the game)."""
    if not game.state or note_kind not in (
        Notification.Kind.TURN_RESOLVED,
        Notification.Kind.GAME_OVER,
    ):
        return {}
    wanted = turn - 1 if note_kind == Notification.Kind.TURN_RESOLVED else None
    view = engine.view(game.state, me)
    robots = robot_names(view, names)
    stories = view["story"]
    story = next((s for s in stories if s["turn"] == wanted), stories[-1] if stories else None)
    return {"story": [describe(e, robots) for e in story["events"]] if story else []}
