"""Geared on the web: its table's page, its page (hand, builds, the confirm step), its log and
its e-mail lines. The selection a player builds up by taps lives in games/pages/geared_ui.py."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.engines.geared import engine
from games.engines.geared.text import with_build_numbers
from games.engines.geared.viewing import view_event
from games.models import Game, Notification
from games.pages.base import Table
from games.pages.geared_text import describe
from games.pages.geared_ui import Selection, board_preview, offer
from games.reads import links

TURN_NOUN = pgettext_lazy("what is due", "turn")
MISSED = gettext_lazy("a bot plays for you")
# The notes box's hint (templates/games/_notes.html): what a Geared player might jot down.
NOTES_HINT = gettext_lazy("Plans, what was discarded, who holds a Steal…")


# --- the lobby ---------------------------------------------------------------------------------


def table_context(game: Game) -> dict:
    return {"robot_choices": [], "robot_choice_names": {}}


# --- the game page -----------------------------------------------------------------------------


def context(table: Table) -> dict:
    """The hand, the builds (with the preview of a chosen move), the story, and where the
    keyboard goes next."""
    game, view, legal, names, me = table.game, table.view, table.legal, table.names, table.me
    sel = Selection.parse(table.query)
    ui = offer(view, legal, sel)
    hand = _hand(view, ui, sel)
    part_links = {}
    for cid in ui["table_tappable"]:
        if sel.card is None:
            part_links[cid] = Selection(move=None if sel.move == cid else cid).query()
    for target, _label, query in ui.get("target_links", []):
        part_links[target] = query
    preview = ui.get("preview")
    board = board_preview(view, preview.action) if preview else {}
    last = last_move_cards(view)
    ghosts, leaving = board.get("ghosts", {}), board.get("leaving", set())
    game_url = links.url("game", game.pk)
    fragment_url = links.url("game_fragment", game.pk)
    players = []
    for sid in view["seats"]:
        p = view["players"][sid]
        players.append(
            {
                **p,
                "seat": sid,
                # The seat's name now, not the one the engine was given at the start.
                "name": names.get(sid, p["name"]),
                "is_me": sid == me,
                "is_turn": sid == view["turn"],
                "progress": min(100, round(100 * p["score"] / view["target"])),
                "builds": [
                    _build(
                        i,
                        b,
                        ghosts.get(b["id"], {}),
                        leaving,
                        part_links,
                        sel,
                        last,
                    )
                    for i, b in enumerate(p["builds"], start=1)
                ],
                "new_builds": board.get("new_builds", []) if sid == me else [],
                "bikes": [
                    {**bike, "last": any(c["id"] in last for c in bike["cards"])}
                    for bike in p["bikes"]
                ],
            }
        )
    if me:  # my own builds first, the others in seat order after
        players.sort(key=lambda p: not p["is_me"])
    is_my_turn = me is not None and me in engine.to_act(game.state)
    focus = _focus(ui, sel, hand, is_my_turn and not view["over"])
    for h in hand:
        h["focus"] = focus == f"card:{h['card']['id']}"
    # Focus moves after an htmx swap by static/js/geartable.js (data-autofocus); a whole page
    # loaded mid-selection (without JavaScript, or a reload) asks the browser (autofocus).
    full_page = not table.htmx and not sel.empty
    autofocus = "data-autofocus autofocus" if full_page else "data-autofocus"
    seen = table.seen
    written, finish = links.sentences(names, table.links)  # the story's names as links
    return {
        "sel": sel,
        "ui": ui,
        "hand": hand,
        "focus": focus,
        "autofocus": autofocus,
        "move_query": sel.query() if preview else "",
        "highlight": {c.build for c in ui["choices"] if c.build is not None}
        | set(ghosts if preview else ()),
        "game_url": game_url,
        "fragment_url": fragment_url,
        "events": [
            {
                "text": finish(describe(e, written, me)),
                "new": seen is not None and e["n"] > seen,
            }
            for e in reversed(with_build_numbers(view["events"], game.state["events"]))
        ],
        "players": players,
        "last_move": last,
        "discard_last": bool(view["discard"]) and view["discard"][-1]["id"] in last,
        "turn_name": names.get(view["turn"], ""),
    }


# The events that end a turn (the draw) or follow from a move without moving a card of its own.
_TURN_ENDS = ("drew", "reshuffled", "game_over")


def last_move_cards(view: dict) -> set[int]:
    """The cards the last turn placed, moved, stole, swapped, removed or discarded, among those
    the table draws for everyone (builds, bikes, the discard pile's top): the board's highlight
    (issue 27.9). Read from the seat's view only, and kept to the public cards, so it never
    names a card of a hand, whoever looks."""
    events = view["events"]
    end = len(events)
    while end and events[end - 1]["type"] in _TURN_ENDS:
        end -= 1
    if not end:
        return set()
    seat, moved = events[end - 1].get("seat"), set()
    for e in reversed(events[:end]):
        if e.get("seat") != seat or e["type"] in _TURN_ENDS:
            break  # the turn before
        moved.update(_moved_by(e))
    public = {view["discard"][-1]["id"]} if view["discard"] else set()  # its top is drawn
    for p in view["players"].values():
        for b in p["builds"]:
            public.update(c["id"] for c in b["parts"].values() if c)
        for bike in p["bikes"]:
            public.update(c["id"] for c in bike["cards"])
    return moved & public


def _moved_by(e: dict) -> list[int]:
    kind = e["type"]
    if kind in ("played", "completed"):
        return list(e["cards"])
    if kind in ("rearranged", "discarded"):
        return [e["card"]]
    if kind in ("removed", "stole"):
        return [e["card"], e["target"]]
    if kind == "swapped":
        return [e["card"], e["mine"], e["theirs"]]
    return []


def _hand(view: dict, ui: dict, sel: Selection) -> list[dict]:
    """My cards, each with the selection a tap on it makes."""
    hand = []
    for card in view["hand"]:
        cid = card["id"]
        selected = cid in sel.pick or cid == sel.card
        if card["kind"] == "action" or ui["only_discard"]:
            query = Selection(card=None if selected else cid).query()
        else:
            pick = [c for c in sel.pick if c != cid] if selected else [*sel.pick, cid]
            if not selected and cid not in ui["extend"]:
                pick = [cid]  # a card that cannot join the selection starts a new one
            query = Selection(pick=pick).query()
        hand.append(
            {
                "card": card,
                "selected": selected,
                "tappable": cid in ui["hand_tappable"],
                "extends": cid in ui["extend"],
                "query": query,
            }
        )
    return hand


def _build(
    number: int,
    build: dict,
    ghosts: dict,
    leaving: set,
    part_links: dict,
    sel,
    last: set,
) -> dict:
    """A build as the page draws it: each slot with its card, the card a preview would put
    there (faint), whether a preview takes its card away, whether the last turn moved it, and
    the link a tap on it follows (templates/games/geared.html draws them). `number`: "Build 2",
    as text (a number printed by a template is localised, several times the cost)."""
    slots = []
    for name, card in build["parts"].items():
        cid = card["id"] if card else None
        slots.append(
            {
                "name": name,
                "card": card,
                "ghost": ghosts.get(name),
                "leaving": cid in leaving,
                "link": part_links.get(cid),
                "selected": cid is not None and cid in (sel.move, sel.target),
                "last": cid in last,
            }
        )
    return {**build, "number": str(number), "slots": slots}


def _focus(ui: dict, sel: Selection, hand: list, my_turn: bool) -> str:
    """Which control the keyboard should be on once this page or fragment shows: the next one
    that makes sense in a turn (the first destination, then Play, then the hand again)."""
    if not my_turn:
        return "turn"
    if ui.get("preview"):
        return "confirm"
    if ui["choices"]:
        return "choice"
    if ui.get("target_links"):
        return "target"
    tappable = [h["card"]["id"] for h in hand if h["tappable"]]
    more = [h["card"]["id"] for h in hand if h["extends"]]
    if sel.pick and (more or sel.pick[-1] in tappable):
        return f"card:{more[0] if more else sel.pick[-1]}"
    if tappable:
        return f"card:{tappable[0]}"
    return "turn"


def parse_move(post) -> dict | None:
    return None  # a Geared move is posted as the engine's action, in JSON


def refused_query(query) -> str:
    """Where a refused move (without htmx) goes back to: the same preview, if it still stands."""
    return Selection.parse(query).query().rstrip("?")


# --- the log and the e-mails -------------------------------------------------------------------


def log_context(game: Game, me: str | None, names: dict, name_links: dict | None = None) -> dict:
    """The log by turns, oldest first (issue 27.5): a turn is a player's events up to their
    draw, which ends it (or the game's end); its time is the time of its last move. One query
    for the times, whatever the length of the game. With `name_links` (the page's), the
    sentences' names are links; without (the API), text."""
    written, finish = links.sentences(names, name_links)
    events = with_build_numbers(game.state["events"], game.state["events"])
    groups: list[list[dict]] = [[]]
    for e in events:
        groups[-1].append(e)
        if e["type"] == "drew":
            groups.append([])
    groups = [g for g in groups if g]
    times = _turn_times(game)
    if len(times) != len(groups):
        times = [None] * len(groups)  # a record whose moves do not match: no times, never wrong
    turns = [
        {
            "turn": number,
            "who": _turn_player(group, names, me),
            "time": time,
            "lines": [finish(describe(view_event(e, me), written, me)) for e in group],
        }
        for number, (group, time) in enumerate(zip(groups, times, strict=True), start=1)
    ]
    return {"lines": None, "turns": turns}


def _turn_player(group: list[dict], names: dict, me: str | None) -> str:
    seat = next((e["seat"] for e in group if e.get("seat")), "")
    return gettext("You") if seat and seat == me else names.get(seat, "")


def _turn_times(game: Game) -> list:
    """When each turn ended: a turn is moves up to the first one that is not a rearrangement
    (which ends it with a draw); a game that ends on a rearrangement ends a last turn."""
    times: list = []
    open_turn = False
    moves = game.moves.order_by("seq").values_list("created", "action__type")
    for created, kind in moves:
        if open_turn:
            times[-1] = created
        else:
            times.append(created)
        open_turn = kind == "rearrange"
    return times


def email_context(note_kind: str, game: Game, me: str | None, names: dict, turn: int) -> dict:
    if note_kind != Notification.Kind.YOUR_TURN or not game.state:
        return {}
    return {"events": _events_since_last_turn(game.state, me, names)}


def _events_since_last_turn(state: dict, seat: str | None, names: dict) -> list[str]:
    """What happened since this player's last turn, as they may see it (G19)."""
    events = state["events"]
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("seat") == seat and events[i]["type"] == "drew":
            start = i + 1  # their last turn ends with their draw
            break
    shown = with_build_numbers(events[start:][-40:], events)
    return [describe(view_event(e, seat), names, seat) for e in shown]
