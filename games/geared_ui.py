"""The Geared page's choices: from the seat's view, its legal actions and what the player has
tapped so far, the buttons to offer. Pure; the template shows what this returns.

Selection (query string): `pick` hand parts chosen for a play, `card` an action card chosen,
`target` Steal's target or Swap's own part, `move` a part of one's own build to rearrange.
Every final button posts one action taken verbatim from legal_actions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from games.geared.cards import DECK_SIZE, card_name


@dataclass
class Choice:
    label: str
    action: dict
    build: object = None  # where the button is shown: a build id, "new", or None (in the list)
    level: int | None = None

    @property
    def payload(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))


@dataclass
class Selection:
    pick: list[int] = field(default_factory=list)
    card: int | None = None
    target: int | None = None
    move: int | None = None

    @classmethod
    def parse(cls, params) -> Selection:
        def ints(raw: str) -> list[int]:
            # Card ids only: isdigit() also accepts "²" (int() refuses it), an id beyond the deck
            # has no name to show, and int() refuses a string of over 4,300 digits (a 500).
            ids = [int(x) for x in raw.split(",") if x.strip().isdecimal() and len(x) <= 4]
            return [x for x in ids if x < DECK_SIZE][:3]

        def one(name: str) -> int | None:
            found = ints(params.get(name, ""))
            return found[0] if found else None

        return cls(
            pick=ints(params.get("pick", "")),
            card=one("card"),
            target=one("target"),
            move=one("move"),
        )

    def query(self, **change) -> str:
        values = {"pick": self.pick, "card": self.card, "target": self.target, "move": self.move}
        values.update(change)
        parts = []
        for key, value in values.items():
            if value in (None, []):
                continue
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            parts.append(f"{key}={text}")
        return "?" + "&".join(parts) if parts else "?"


def _build_label(view: dict, build_id) -> str:
    if build_id in ("new", "new1", "new2", "new3"):
        return (
            "a new build" if build_id in ("new", "new1") else f"another new build ({build_id[-1]})"
        )
    for seat in view["seats"]:
        for i, build in enumerate(view["players"][seat]["builds"], start=1):
            if build["id"] == build_id:
                owner = "your" if seat == view["you"] else f"{view['names'][seat]}'s"
                return f"{owner} build {i}"
    return f"build {build_id}"


def _where(part_id: int, view: dict) -> str:
    for seat in view["seats"]:
        for i, build in enumerate(view["players"][seat]["builds"], start=1):
            for card in build["parts"].values():
                if card and card["id"] == part_id:
                    owner = "your" if seat == view["you"] else f"{view['names'][seat]}'s"
                    return f"{owner} {card_name(part_id, card['level'])} (build {i})"
    return card_name(part_id)


def offer(view: dict, legal: list[dict], sel: Selection) -> dict:
    """What the page offers: hand cards that can be tapped, table parts that can be tapped, and
    the final choices for the current selection (each a legal action)."""
    plays = [a for a in legal if a["type"] == "play"]
    only_discard = bool(legal) and all(a["type"] in ("discard", "pass") for a in legal)
    out: dict = {
        "hand_tappable": set(),
        "table_tappable": set(),
        "choices": [],
        "prompt": "",
        "extend": set(),
        "pass": next((a for a in legal if a["type"] == "pass"), None),
        "only_discard": only_discard,
        "any": bool(legal),
    }
    if not legal:
        return out
    for a in plays:
        out["hand_tappable"].update(a["cards"])
    for a in legal:
        if a["type"] in ("remove", "steal", "swap", "discard"):
            out["hand_tappable"].add(a["card"])
        if a["type"] == "rearrange":
            out["table_tappable"].add(a["card"])

    if sel.move is not None:
        options = [a for a in legal if a["type"] == "rearrange" and a["card"] == sel.move]
        out["prompt"] = f"Move {_where(sel.move, view)} to:"
        for a in options:
            level = f" as Level {a['level']}" if "level" in a else ""
            out["choices"].append(
                Choice(
                    f"{_build_label(view, a['to'])}{level}", a, build=a["to"], level=a.get("level")
                )
            )
        return out

    if sel.card is not None:
        acts = [a for a in legal if a.get("card") == sel.card and a["type"] != "rearrange"]
        if not acts:
            return out
        kind = acts[0]["type"]
        if kind == "discard":
            out["prompt"] = "No play is possible: discard this card and draw one (G8)."
            out["choices"] = [Choice(f"Discard {card_name(sel.card)}", acts[0])]
        elif kind == "remove":
            out["prompt"] = "Remove which part? It goes to the discard pile."
            out["choices"] = [Choice(f"Remove {_where(a['target'], view)}", a) for a in acts]
            out["table_tappable"] = {a["target"] for a in acts}
        elif kind == "steal" and sel.target is None:
            out["prompt"] = "Steal which part?"
            out["targets"] = sorted({a["target"] for a in acts})
            out["target_links"] = [
                (t, _where(t, view), sel.query(target=t)) for t in out["targets"]
            ]
        elif kind == "steal":
            out["prompt"] = f"Put {_where(sel.target, view)} into:"
            for a in acts:
                if a["target"] == sel.target:
                    level = f" as Level {a['level']}" if "level" in a else ""
                    out["choices"].append(Choice(f"{_build_label(view, a['to'])}{level}", a))
        elif kind == "swap" and sel.target is None:
            out["prompt"] = "Swap which of your parts?"
            mine = sorted({a["mine"] for a in acts})
            out["target_links"] = [(m, _where(m, view), sel.query(target=m)) for m in mine]
        elif kind == "swap":
            out["prompt"] = f"Swap {_where(sel.target, view)} for:"
            for a in acts:
                if a["mine"] == sel.target:
                    out["choices"].append(Choice(_where(a["theirs"], view), a))
        return out

    if sel.pick:
        picked = sorted(sel.pick)
        if only_discard:
            acts = [a for a in legal if a["type"] == "discard" and a["card"] == picked[0]]
            out["prompt"] = "No play is possible: discard a card and draw one (G8)."
            out["choices"] = [Choice(f"Discard {card_name(a['card'])}", a) for a in acts]
            return out
        options = [a for a in plays if sorted(a["cards"]) == picked]
        out["extend"] = {
            c
            for a in plays
            if len(a["cards"]) > len(picked) and set(picked) <= set(a["cards"])
            for c in a["cards"]
        } - set(picked)
        names = ", ".join(card_name(c) for c in picked)
        out["prompt"] = f"Play {names}:" if options else f"{names}: pick more cards of this level."
        for a in options:
            level = a.get("level")
            if len(a["cards"]) == 1:
                label = _build_label(view, a["builds"][0]) + (f" as Level {level}" if level else "")
                out["choices"].append(Choice(label, a, build=a["builds"][0], level=level))
            else:
                parts = [
                    f"{card_name(c, level)} → {_build_label(view, b)}"
                    for c, b in zip(a["cards"], a["builds"], strict=True)
                ]
                out["choices"].append(Choice("; ".join(parts), a))
        return out

    if only_discard:
        out["prompt"] = (
            "No play is possible: tap a card to discard it and draw one (G8)."
            if not out["pass"]
            else "Your hand is empty: pass (G8)."
        )
    else:
        out["prompt"] = "Your turn: tap a card in your hand, or a part of your builds to move it."
    return out
