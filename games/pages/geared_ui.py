"""The Geared page's choices: from the seat's view, its legal actions and what the player has
tapped so far, the buttons to offer. Pure; the template shows what this returns.

Selection (query string): `pick` hand parts chosen for a play, `card` an action card chosen,
`target` Steal's target or Swap's own part, `move` a part of one's own build to rearrange;
then `to` (and `level` for a wild) the destination chosen, which makes the page a preview of
one legal action with a single button that posts it verbatim. Only that POST changes the game:
every step before it is a GET link, so it works without JavaScript and commits nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from games.engines.geared.cards import DECK_SIZE, card_dict
from games.pages.geared_text import YOUR, join, owned
from games.words import card_name

# A destination token: a build ("b7", or "new"/"new1".."new3"), a part on the table ("p24"),
# or the two plays that have none ("discard", "pass").
_TOKEN = re.compile(r"(?:new[1-3]?|b\d{1,4}|p\d{1,2}|discard|pass)")


def destination(action: dict) -> list[str]:
    """Where an action goes, as the `to` tokens of the link that previews it."""
    kind = action["type"]
    if kind == "play":
        return [_build_token(b) for b in action["builds"]]
    if kind in ("rearrange", "steal"):
        return [_build_token(action["to"])]
    if kind == "remove":
        return [f"p{action['target']}"]
    if kind == "swap":
        return [f"p{action['theirs']}"]
    return [kind]


def _build_token(build) -> str:
    return build if isinstance(build, str) else f"b{build}"


@dataclass
class Choice:
    label: str
    action: dict
    build: object = None  # where the button is shown: a build id, "new", or None (in the list)
    level: int | None = None
    query: str = ""  # the selection that previews this choice

    @property
    def payload(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))


@dataclass
class Selection:
    pick: list[int] = field(default_factory=list)
    card: int | None = None
    target: int | None = None
    move: int | None = None
    to: list[str] = field(default_factory=list)
    level: int | None = None

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

        to = [t for t in params.get("to", "").split(",")[:3] if _TOKEN.fullmatch(t)]
        level = params.get("level", "")
        return cls(
            pick=ints(params.get("pick", "")),
            card=one("card"),
            target=one("target"),
            move=one("move"),
            to=to,
            level=int(level) if level in ("1", "2", "3", "4", "5") else None,
        )

    @property
    def empty(self) -> bool:
        return not (self.pick or self.card is not None or self.move is not None or self.to)

    def query(self, **change) -> str:
        values = {
            "pick": self.pick,
            "card": self.card,
            "target": self.target,
            "move": self.move,
            "to": self.to,
            "level": self.level,
        }
        values.update(change)
        parts = []
        for key, value in values.items():
            if value in (None, []):
                continue
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            parts.append(f"{key}={text}")
        return "?" + "&".join(parts) if parts else "?"


def _owner_and_number(view: dict, build_id) -> tuple[str | None, int] | None:
    """(the owner's name, None for mine; the build's number on the table), or None."""
    for seat in view["seats"]:
        for i, build in enumerate(view["players"][seat]["builds"], start=1):
            if build["id"] == build_id:
                return (None if seat == view["you"] else view["names"][seat]), i
    return None


def _build_label(view: dict, build_id) -> str:
    if build_id in ("new", "new1", "new2", "new3"):
        if build_id in ("new", "new1"):
            return gettext("a new build")
        return gettext("another new build (%(number)s)") % {"number": build_id[-1]}
    found = _owner_and_number(view, build_id)
    if found is None:
        return gettext("build %(number)s") % {"number": build_id}
    owner, number = found
    if owner is None:
        return gettext("your build %(number)s") % {"number": number}
    return gettext("%(name)s's build %(number)s") % {"name": owner, "number": number}


def _where(part_id: int, view: dict) -> str:
    for seat in view["seats"]:
        for i, build in enumerate(view["players"][seat]["builds"], start=1):
            for card in build["parts"].values():
                if card and card["id"] == part_id:
                    whose = YOUR if seat == view["you"] else view["names"][seat]
                    return gettext("%(part)s (build %(number)s)") % {
                        "part": owned(part_id, card["level"], whose),
                        "number": i,
                    }
    return card_name(part_id)


# Where a part goes, in a sentence: 'on your build 2', 'into Anna's build 1'.
_ONTO = {
    "on": (
        gettext_lazy("on your build %(number)s"),
        gettext_lazy("on %(name)s's build %(number)s"),
    ),
    "to": (
        gettext_lazy("to your build %(number)s"),
        gettext_lazy("to %(name)s's build %(number)s"),
    ),
    "into": (
        gettext_lazy("into your build %(number)s"),
        gettext_lazy("into %(name)s's build %(number)s"),
    ),
}


def _onto(view: dict, build_id, word: str) -> str:
    """'on your build 2', 'to start a new build': where a part goes, in a sentence."""
    if build_id in ("new", "new1"):
        return gettext("to start a new build")
    if build_id == "new2":
        return gettext("to start a second new build")
    if build_id == "new3":
        return gettext("to start a third new build")
    found = _owner_and_number(view, build_id)
    if found is None:
        return f"{word} {_build_label(view, build_id)}"
    owner, number = found
    mine, theirs = _ONTO[word]
    if owner is None:
        return str(mine) % {"number": number}
    return str(theirs) % {"name": owner, "number": number}


def _as_level(level) -> str:
    """' as Level 3' (a wild's declared level, after a destination), or nothing."""
    return gettext(" as Level %(level)s") % {"level": level} if level else ""


def _and(items: list[str]) -> str:
    return join(items)


def sentence(view: dict, action: dict) -> str:
    """The move a preview shows, as the sentence a player would say: 'Play Level 3 Frame on
    your build 2.'"""
    kind, level = action["type"], action.get("level")
    if kind == "play":
        groups: dict = {}
        for card, build in zip(action["cards"], action["builds"], strict=True):
            groups.setdefault(build, []).append(card_name(card, level))
        parts = [
            gettext("%(cards)s %(where)s") % {"cards": _and(names), "where": _onto(view, b, "on")}
            for b, names in groups.items()
        ]
        return gettext("Play %(parts)s.") % {"parts": _and(parts)}
    if kind == "rearrange":
        return gettext("Move %(part)s %(where)s%(as_level)s.") % {
            "part": _where(action["card"], view),
            "where": _onto(view, action["to"], "to"),
            "as_level": _as_level(level),
        }
    if kind == "remove":
        return gettext("Play Remove on %(part)s: it goes to the discard pile.") % {
            "part": _where(action["target"], view)
        }
    if kind == "steal":
        return gettext("Play Steal: take %(part)s and put it %(where)s%(as_level)s.") % {
            "part": _where(action["target"], view),
            "where": _onto(view, action["to"], "into"),
            "as_level": _as_level(level),
        }
    if kind == "swap":
        return gettext("Play Swap: exchange %(mine)s for %(theirs)s.") % {
            "mine": _where(action["mine"], view),
            "theirs": _where(action["theirs"], view),
        }
    if kind == "discard":
        return gettext("Discard %(card)s and draw one card (no play is possible, G8).") % {
            "card": card_name(action["card"])
        }
    return gettext("Pass: your hand is empty, so you draw nothing (G8).")


def board_preview(view: dict, action: dict) -> dict:
    """How a previewed action would look on the table, before anything happens: `ghosts`, the
    cards drawn faint in the slots they would fill ({build id: {slot: card}}), `new_builds`,
    the builds it would start (each {slot: card}), and `leaving`, the parts it takes away."""
    kind, level = action["type"], action.get("level")
    placed: list[tuple[object, dict]] = []  # (build id, card dict)
    leaving: set[int] = set()
    if kind == "play":
        cards = zip(action["cards"], action["builds"], strict=True)
        placed = [(build, card_dict(c, level)) for c, build in cards]
    elif kind in ("rearrange", "steal"):
        part = action["card"] if kind == "rearrange" else action["target"]
        placed = [(action["to"], card_dict(part, level))]
        leaving = {part}
    elif kind == "remove":
        leaving = {action["target"]}
    elif kind == "swap":
        mine, theirs = action["mine"], action["theirs"]
        placed = [
            (_build_of(view, mine), _card_on_table(view, theirs)),
            (_build_of(view, theirs), _card_on_table(view, mine)),
        ]
        leaving = {mine, theirs}
    ghosts: dict = {}
    new_builds: dict = {}
    for build, card in placed:
        if isinstance(build, str):  # "new", "new1".."new3"
            empty = {"frame": None, "handlebars": None, "wheels": None}
            new_builds.setdefault(build, empty)[card["part"]] = card
        else:
            ghosts.setdefault(build, {})[card["part"]] = card
    return {"ghosts": ghosts, "new_builds": list(new_builds.values()), "leaving": leaving}


def _build_of(view: dict, part_id: int):
    for seat in view["seats"]:
        for build in view["players"][seat]["builds"]:
            if any(c and c["id"] == part_id for c in build["parts"].values()):
                return build["id"]
    return None


def _card_on_table(view: dict, part_id: int) -> dict:
    for seat in view["seats"]:
        for build in view["players"][seat]["builds"]:
            for card in build["parts"].values():
                if card and card["id"] == part_id:
                    return card
    return card_dict(part_id)


CONFIRM_LABELS = {
    "rearrange": pgettext_lazy("button", "Move"),
    "discard": pgettext_lazy("button", "Discard"),
    "pass": pgettext_lazy("button", "Pass"),
}
REFUSED = gettext_lazy("That move is not possible now: choose again.")


def offer(view: dict, legal: list[dict], sel: Selection) -> dict:
    """What the page offers: hand cards that can be tapped, table parts that can be tapped, and
    the choices for the current selection (each a legal action, each a link to its preview);
    with a destination chosen, the preview of that one action (`preview`, `sentence`,
    `confirm`), or why there is none (`refused`: it is not, or no longer, a legal move)."""
    out = _offer(view, legal, sel)
    for choice in out["choices"]:
        a = choice.action
        choice.query = sel.query(to=destination(a), level=a.get("level"))
    out["back"] = sel.query(to=[], level=None)
    if not sel.to:
        return out
    chosen = [
        c
        for c in out["choices"]
        if destination(c.action) == sel.to and c.action.get("level") == sel.level
    ]
    if not chosen:
        out["refused"] = (
            str(REFUSED)
            if legal
            else gettext("That move is not possible now: it is not your turn.")
        )
        return out
    out["preview"] = chosen[0]
    out["sentence"] = sentence(view, chosen[0].action)
    out["confirm"] = str(CONFIRM_LABELS.get(chosen[0].action["type"]) or pgettext("button", "Play"))
    return out


def _offer(view: dict, legal: list[dict], sel: Selection) -> dict:
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
        _offer_move(out, view, legal, sel)
    elif sel.card is not None:
        _offer_action_card(out, view, legal, sel)
    elif sel.pick:
        _offer_play(out, view, legal, plays, sel)
    else:
        _offer_start(out)
    return out


def _offer_move(out: dict, view: dict, legal: list[dict], sel: Selection) -> None:
    """A part of my builds chosen (a rearrangement, G13): where it may go."""
    options = [a for a in legal if a["type"] == "rearrange" and a["card"] == sel.move]
    out["prompt"] = gettext("Move %(part)s to:") % {"part": _where(sel.move, view)}
    for a in options:
        label = _build_label(view, a["to"]) + _as_level(a.get("level"))
        out["choices"].append(Choice(label, a, build=a["to"], level=a.get("level")))


def _offer_action_card(out: dict, view: dict, legal: list[dict], sel: Selection) -> None:
    """An action card (or the card to discard) chosen: its targets, then its destinations."""
    acts = [a for a in legal if a.get("card") == sel.card and a["type"] != "rearrange"]
    if not acts:
        return
    kind = acts[0]["type"]
    if kind == "discard":
        out["prompt"] = gettext("No play is possible: discard this card and draw one (G8).")
        out["choices"] = [Choice(_discard(sel.card), acts[0])]
    elif kind == "remove":
        out["prompt"] = gettext("Remove which part? It goes to the discard pile.")
        out["choices"] = [
            Choice(gettext("Remove %(part)s") % {"part": _where(a["target"], view)}, a)
            for a in acts
        ]
        out["table_tappable"] = {a["target"] for a in acts}
    elif kind == "steal" and sel.target is None:
        out["prompt"] = gettext("Steal which part?")
        out["targets"] = sorted({a["target"] for a in acts})
        out["target_links"] = [
            (t, _where(t, view), sel.query(target=t, to=[], level=None)) for t in out["targets"]
        ]
    elif kind == "steal":
        out["prompt"] = gettext("Put %(part)s into:") % {"part": _where(sel.target, view)}
        for a in acts:
            if a["target"] == sel.target:
                label = _build_label(view, a["to"]) + _as_level(a.get("level"))
                out["choices"].append(Choice(label, a))
    elif kind == "swap" and sel.target is None:
        out["prompt"] = gettext("Swap which of your parts?")
        mine = sorted({a["mine"] for a in acts})
        out["target_links"] = [
            (m, _where(m, view), sel.query(target=m, to=[], level=None)) for m in mine
        ]
    elif kind == "swap":
        out["prompt"] = gettext("Swap %(part)s for:") % {"part": _where(sel.target, view)}
        for a in acts:
            if a["mine"] == sel.target:
                out["choices"].append(Choice(_where(a["theirs"], view), a))


def _offer_play(out: dict, view: dict, legal: list, plays: list, sel: Selection) -> None:
    """Parts cards picked from the hand: the builds they may go to, or what may join them."""
    only_discard = out["only_discard"]
    picked = sorted(sel.pick)
    if only_discard:
        acts = [a for a in legal if a["type"] == "discard" and a["card"] == picked[0]]
        out["prompt"] = gettext("No play is possible: discard a card and draw one (G8).")
        out["choices"] = [Choice(_discard(a["card"]), a) for a in acts]
        return
    options = [a for a in plays if sorted(a["cards"]) == picked]
    out["extend"] = {
        c
        for a in plays
        if len(a["cards"]) > len(picked) and set(picked) <= set(a["cards"])
        for c in a["cards"]
    } - set(picked)
    names = ", ".join(card_name(c) for c in picked)
    out["prompt"] = (
        gettext("Play %(cards)s:") % {"cards": names}
        if options
        else gettext("%(cards)s: pick more cards of this level.") % {"cards": names}
    )
    for a in options:
        level = a.get("level")
        if len(a["cards"]) == 1:
            label = _build_label(view, a["builds"][0]) + _as_level(level)
            out["choices"].append(Choice(label, a, build=a["builds"][0], level=level))
        else:
            parts = [
                f"{card_name(c, level)} → {_build_label(view, b)}"
                for c, b in zip(a["cards"], a["builds"], strict=True)
            ]
            out["choices"].append(Choice("; ".join(parts), a))


def _offer_start(out: dict) -> None:
    """Nothing chosen yet: what the turn allows."""
    only_discard = out["only_discard"]
    if only_discard:
        out["prompt"] = (
            gettext("No play is possible: tap a card to discard it and draw one (G8).")
            if not out["pass"]
            else gettext("Your hand is empty: pass (G8).")
        )
    else:
        out["prompt"] = gettext(
            "Your turn: tap a card in your hand, or a part of your builds to move it."
        )
    if out["pass"]:
        out["choices"] = [Choice(gettext("Pass (your hand is empty)"), out["pass"])]


def _discard(card: int) -> str:
    """A discard's button: "Discard Level 2 Frame"."""
    return gettext("Discard %(card)s") % {"card": card_name(card)}
