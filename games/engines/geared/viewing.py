"""What one seat (or a spectator) may see of a Geared game (G19)."""

from __future__ import annotations

from games.engines.geared.builds import common_level
from games.engines.geared.cards import FIRST_WILD, IS_WILD, LEVEL, PART, PART_TYPES, card_dict

RECENT_EVENTS = 30


def view(state: dict, seat: str | None) -> dict:
    """Everything `seat` may see; None is a spectator. Never the seed, the generator, the draw
    pile's cards or another seat's hand (G19)."""
    if seat is not None and seat not in state["hands"]:
        seat = None
    wl = state["wild_levels"]
    seats = state["seats"]
    over = state["over"]
    turn = None if over else seats[state["turn"]]
    players = {}
    for s in seats:
        players[s] = {
            "name": state["names"][s],
            "score": state["scores"][s],
            "hand_size": len(state["hands"][s]),
            "builds": [_build_view(b, wl) for b in state["builds"][s]],
            "bikes": [_bike_view(bike) for bike in state["bikes"][s]],
            "scored": [
                {"points": b["points"], "set": b["set"], "level": b["level"]}
                for b in state["scored"][s]
            ],
        }
    out = {
        "game": "geared",
        "seats": list(seats),
        "names": dict(state["names"]),
        "you": seat,
        "hand": [card_dict(c) for c in state["hands"][seat]] if seat is not None else [],
        "players": players,
        "discard": [card_dict(c) for c in state["discard"]],
        "draw_size": len(state["draw"]),
        "turn": turn,
        "dealer": state["dealer"],
        "target": state["target"],
        "turn_number": state["turn_number"],
        "over": over,
        "result": None,
        "events": [view_event(e, seat) for e in state["events"][-RECENT_EVENTS:]],
    }
    if over:
        ranking = sorted(seats, key=lambda s: (-state["scores"][s], seats.index(s)))
        out["result"] = {
            "scores": dict(state["scores"]),
            "winners": list(state["winners"]),
            "ranking": ranking,
        }
    return out


def view_event(event: dict, seat: str | None) -> dict:
    """An event as `seat` may see it: only the drawer learns which cards were drawn."""
    e = dict(event)
    if e["type"] == "drew" and e["seat"] != seat:
        del e["cards"]
    return e


def _build_view(build: dict, wl: list) -> dict:
    slots: dict[str, dict | None] = {t: None for t in PART_TYPES}
    entries = []
    for c in build["cards"]:
        lv = wl[c - FIRST_WILD] if IS_WILD[c] else LEVEL[c]
        slots[PART_TYPES[PART[c]]] = card_dict(c, lv)
        entries.append((c, lv))
    level = common_level(entries)
    return {
        "id": build["id"],
        "parts": slots,
        "size": len(entries),
        "same_level": level is not None,  # would be a set if completed with this level
        "level": level,
        "has_wild": any(IS_WILD[c] for c, _ in entries),
    }


def _bike_view(bike: dict) -> dict:
    return {
        "cards": [card_dict(c, bike["level"]) for c in bike["cards"]],
        "points": bike["points"],
        "set": bike["set"],
        "level": bike["level"],
    }
