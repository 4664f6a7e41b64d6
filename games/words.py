"""The games' own words in the reader's language (docs/i18n.md, the glossary): Geared's cards
and parts, Out of Gears' robots, colours and program cards; and the engines' refusals, whose
message ids and parameters (games/engines/interface.py: IllegalMove, Term) are translated here
and filled in, a Term named in the same language. Shared by the write path (a refused move's
sentence) and the pages (the log, the page's labels), in the language active now.
"""

from __future__ import annotations

import functools

from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, pgettext

from games.engines.geared.cards import ACTION, IS_WILD, LEVEL, PART
from games.engines.interface import IllegalMove, Term
from games.engines.outofgears.common import COLOURS


def once_per_language(function):
    """`function` (of a few small arguments from a fixed set: a card, a colour, a message id)
    computed once per language and remembered: a log writes hundreds of names, and each lookup
    of the active language costs microseconds. `language=`: the active language, when the
    caller has read it already (a sentence reads it once for all its words)."""
    done: dict = {}

    @functools.wraps(function)
    def remembered(*args, language: str | None = None):
        key = (language or get_language(), *args)
        found = done.get(key)
        if found is None:
            found = done[key] = function(*args)
        return found

    return remembered


@once_per_language
def translated(message: str) -> str:
    """gettext(message), remembered per language (a message id marked with gettext_noop)."""
    return gettext(message)


# --- Geared ------------------------------------------------------------------------------------


@once_per_language
def part_name(part: int) -> str:
    """A part type (0, 1, 2) by name: "Frame", "Handlebars", "Wheels"."""
    return (gettext("Frame"), gettext("Handlebars"), gettext("Wheels"))[part]


@once_per_language
def action_name(action: int) -> str:
    """An Action card's kind (0, 1, 2) by name: "Remove", "Steal", "Swap"."""
    return (pgettext("card", "Remove"), pgettext("card", "Steal"), pgettext("card", "Swap"))[action]


@once_per_language
def card_name(cid: int, level: int | None = None) -> str:
    """'Level 3 Frame', 'Wild Wheels (Level 2)', 'Steal'; `level`: a placed wild's."""
    if ACTION[cid] >= 0:
        return action_name(ACTION[cid])
    part = part_name(PART[cid])
    if IS_WILD[cid]:
        if level:
            return gettext("Wild %(part)s (Level %(level)s)") % {"part": part, "level": level}
        return gettext("Wild %(part)s") % {"part": part}
    return gettext("Level %(level)s %(part)s") % {"level": LEVEL[cid], "part": part}


# --- Out of Gears ------------------------------------------------------------------------------


@once_per_language
def colour_name(colour: str) -> str:
    """A gear's or robot's colour, lower case: "red"."""
    return {
        "red": gettext("red"),
        "blue": gettext("blue"),
        "green": gettext("green"),
        "yellow": gettext("yellow"),
        "purple": gettext("purple"),
        "orange": gettext("orange"),
        "black": gettext("black"),
        "white": gettext("white"),
    }.get(colour, colour)


@once_per_language
def robot_name(robot: int) -> str:
    """A robot by name: its colour, capitalised ("Red")."""
    return capfirst(colour_name(COLOURS[robot]))


@once_per_language
def action_label(action: str) -> str:
    """A program card: "Harvest", "Attack", "Trap"."""
    return {
        "harvest": pgettext("program card", "Harvest"),
        "attack": pgettext("program card", "Attack"),
        "trap": pgettext("program card", "Trap"),
    }[action]


# --- the engines' refusals ---------------------------------------------------------------------


def _name(term: Term) -> str:
    if term.what == "card":
        return card_name(*term.value)
    if term.what == "part":
        return part_name(term.value)
    if term.what == "action":
        return action_name(term.value)
    if term.what == "robot":
        return robot_name(term.value)
    return term.english


def refusal(exc: IllegalMove) -> str:
    """The refusal's sentence in the active language."""
    params = {k: _name(v) if isinstance(v, Term) else v for k, v in exc.params.items()}
    message = gettext(exc.msgid)
    return message % params if params else message
