"""Geared's words in the reader's language: card names and the game log's sentences, written at
the edge from the engine's viewed events (the output of engine.view / viewing.view_event), in
the language active now (docs/i18n.md). Whole sentences with named placeholders: a subject
"You" and a player's name are two sentences (Italian conjugates the verb).

`describe` reads only what is in the event it is given, so a viewed event cannot make it reveal
a hidden card. The structure the log needs (build numbers) is the engine's
(games/engines/geared/text.py, `with_build_numbers`).
"""

from __future__ import annotations

from django.utils.translation import (
    get_language,
    gettext,
    gettext_noop,
    ngettext,
    pgettext,
    pgettext_lazy,
)

from games.engines.geared.cards import ACTION, PART
from games.words import card_name, once_per_language, translated


@once_per_language
def a_card(cid: int, level: int | None = None) -> str:
    """A card with its indefinite article: "a Level 2 Frame" (Italian's depends on the part)."""
    card = card_name(cid, level)
    if ACTION[cid] >= 0:
        return pgettext("an Action card", "a %(card)s") % {"card": card}
    article = (
        pgettext("a Frame card", "a %(card)s"),
        pgettext("a Handlebars card", "a %(card)s"),
        pgettext("a Wheels card", "a %(card)s"),
    )[PART[cid]]
    return article % {"card": card}


# Whose a part is, when it is not a player's name: marks no name can be.
YOUR, YOUR_OWN, THEIR_OWN, THEIRS = "\x01your", "\x01your own", "\x01their own", "\x01their"

# A part with its owner ("your Level 5 Wheels", "Anna's Frame"): Italian's possessive agrees
# with the part ("il tuo Telaio", "le tue Ruote"), so one phrase per part type.
_OWNED = {
    YOUR: (
        pgettext_lazy("your part: Frame", "your %(card)s"),
        pgettext_lazy("your part: Handlebars", "your %(card)s"),
        pgettext_lazy("your part: Wheels", "your %(card)s"),
    ),
    YOUR_OWN: (
        pgettext_lazy("your own part: Frame", "your own %(card)s"),
        pgettext_lazy("your own part: Handlebars", "your own %(card)s"),
        pgettext_lazy("your own part: Wheels", "your own %(card)s"),
    ),
    THEIR_OWN: (
        pgettext_lazy("their own part: Frame", "their own %(card)s"),
        pgettext_lazy("their own part: Handlebars", "their own %(card)s"),
        pgettext_lazy("their own part: Wheels", "their own %(card)s"),
    ),
    THEIRS: (
        pgettext_lazy("their part: Frame", "their %(card)s"),
        pgettext_lazy("their part: Handlebars", "their %(card)s"),
        pgettext_lazy("their part: Wheels", "their %(card)s"),
    ),
    None: (
        pgettext_lazy("a player's part: Frame", "%(owner)s's %(card)s"),
        pgettext_lazy("a player's part: Handlebars", "%(owner)s's %(card)s"),
        pgettext_lazy("a player's part: Wheels", "%(owner)s's %(card)s"),
    ),
}


def owned(cid: int, level: int | None, whose: str, language: str | None = None) -> str:
    """A part with its owner: `whose` is YOUR, YOUR_OWN, THEIR_OWN, THEIRS or a player's
    name ("Anna's Level 2 Frame")."""
    if whose in _OWNED:
        phrase = _owned_phrase(whose, PART[cid], language=language)
        return phrase % {"card": card_name(cid, level, language=language)}
    phrase = _owned_phrase(None, PART[cid], language=language)
    return phrase % {"owner": whose, "card": card_name(cid, level, language=language)}


@once_per_language
def _owned_phrase(whose: str | None, part: int) -> str:
    return str(_OWNED[whose][part])


def join(items: list[str], language: str | None = None) -> str:
    """ "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return _and(language=language) % {"first": ", ".join(items[:-1]), "last": items[-1]}


@once_per_language
def _and() -> str:
    return gettext("%(first)s and %(last)s")


def _owner(seat: str, names: dict[str, str], viewer: str | None) -> str:
    """Whose a part is, as `owned` takes it: the reader's own (YOUR), or a player's name."""
    return YOUR if seat == viewer else _name(seat, names)


def _name(seat: str | None, names: dict[str, str]) -> str:
    if seat is None:
        return gettext("Nobody")
    name = names.get(seat)
    return name if name is not None else gettext("Player %(seat)s") % {"seat": seat}


def _in_list(seat: str | None, names: dict[str, str], viewer: str | None) -> str:
    if seat is not None and seat == viewer:
        return pgettext("a player in a list", "You")
    return _name(seat, names)


def _say(language: str, you: bool, mine: str, theirs: str, /, **params: object) -> str:
    """The sentence with the subject "You" (`mine`) or a player's name (`theirs`, %(name)s),
    both marked with gettext_noop: only the one said is looked up."""
    return translated(mine if you else theirs, language=language) % params


def describe(event: dict, names: dict[str, str], viewer: str | None) -> str:
    """One sentence, e.g. "Matt stole your Level 5 Wheels.", "You drew a Level 2 Frame."."""
    kind = event["type"]
    seat = event.get("seat")
    lang = get_language()
    you = seat is not None and seat == viewer
    name = _name(seat, names)
    if kind == "played":
        level = event.get("level")
        cards = join([a_card(c, level, language=lang) for c in event["cards"]], lang)
        return _say(
            lang,
            you,
            gettext_noop("You played %(cards)s."),
            gettext_noop("%(name)s played %(cards)s."),
            name=name,
            cards=cards,
        )
    if kind == "rearranged":
        card = a_card(event["card"], event.get("level"), language=lang)
        if "from_build" not in event:  # not numbered by with_build_numbers()
            return _say(
                lang,
                you,
                gettext_noop("You moved %(card)s from one build to another."),
                gettext_noop("%(name)s moved %(card)s from one build to another."),
                name=name,
                card=card,
            )
        params = {"name": name, "card": card, "from": event["from_build"], "to": event["to_build"]}
        if event["to_build"]:
            return _say(
                lang,
                you,
                gettext_noop("You moved %(card)s from build %(from)s to build %(to)s."),
                gettext_noop("%(name)s moved %(card)s from build %(from)s to build %(to)s."),
                **params,
            )
        return _say(
            lang,
            you,
            gettext_noop("You moved %(card)s from build %(from)s to a new build."),
            gettext_noop("%(name)s moved %(card)s from build %(from)s to a new build."),
            **params,
        )
    if kind == "removed":
        target, level, owner = event["target"], event.get("target_level"), event["owner"]
        if owner == seat:
            part = owned(target, level, YOUR_OWN if you else THEIR_OWN, lang)
        else:
            part = owned(target, level, _owner(owner, names, viewer), lang)
        return _say(
            lang,
            you,
            gettext_noop("You removed %(part)s."),
            gettext_noop("%(name)s removed %(part)s."),
            name=name,
            part=part,
        )
    if kind == "stole":
        whose = _owner(event["owner"], names, viewer)
        return _say(
            lang,
            you,
            gettext_noop("You stole %(part)s."),
            gettext_noop("%(name)s stole %(part)s."),
            name=name,
            part=owned(event["target"], event.get("target_level"), whose, lang),
        )
    if kind == "swapped":
        whose = _owner(event["owner"], names, viewer)
        return _say(
            lang,
            you,
            gettext_noop("You swapped %(mine)s for %(theirs)s."),
            gettext_noop("%(name)s swapped %(mine)s for %(theirs)s."),
            name=name,
            mine=owned(event["mine"], event.get("mine_level"), YOUR if you else THEIRS, lang),
            theirs=owned(event["theirs"], event.get("theirs_level"), whose, lang),
        )
    if kind == "completed":
        params = {"name": name, "level": event.get("level"), "points": event["points"]}
        if event["set"]:
            return _say(
                lang,
                you,
                gettext_noop("You completed a Level %(level)s set: %(points)s points."),
                gettext_noop("%(name)s completed a Level %(level)s set: %(points)s points."),
                **params,
            )
        return _say(
            lang,
            you,
            gettext_noop("You completed a bike: %(points)s points."),
            gettext_noop("%(name)s completed a bike: %(points)s points."),
            **params,
        )
    if kind == "discarded":
        return _say(
            lang,
            you,
            gettext_noop("You discarded %(card)s."),
            gettext_noop("%(name)s discarded %(card)s."),
            name=name,
            card=a_card(event["card"], language=lang),
        )
    if kind == "passed":
        return _say(
            lang, you, gettext_noop("You passed."), gettext_noop("%(name)s passed."), name=name
        )
    if kind == "drew":
        if "cards" in event and seat == viewer:
            return _say(
                lang,
                you,
                gettext_noop("You drew %(cards)s."),
                gettext_noop("%(name)s drew %(cards)s."),
                name=name,
                cards=join([a_card(c, language=lang) for c in event["cards"]], lang),
            )
        count = event["count"]
        if you:
            said = ngettext("You drew %(count)s card.", "You drew %(count)s cards.", count)
        else:
            said = ngettext(
                "%(name)s drew %(count)s card.", "%(name)s drew %(count)s cards.", count
            )
        return said % {"name": name, "count": count}
    if kind == "reshuffled":
        bikes = event["bikes"]
        return ngettext(
            "The discard pile and %(bikes)s completed bike were shuffled into a new draw pile "
            "of %(count)s cards; scores are kept.",
            "The discard pile and %(bikes)s completed bikes were shuffled into a new draw pile "
            "of %(count)s cards; scores are kept.",
            bikes,
        ) % {"bikes": bikes, "count": event["count"]}
    if kind == "game_over":
        winners = event["winners"]
        points = event["scores"][winners[0]]
        if len(winners) == 1:
            won = winners[0]
            return _say(
                lang,
                won is not None and won == viewer,
                gettext_noop("You won with %(points)s points."),
                gettext_noop("%(name)s won with %(points)s points."),
                name=_name(won, names),
                points=points,
            )
        tied = join([_in_list(w, names, viewer) for w in winners], lang)
        return gettext("The game is over: %(players)s tie with %(points)s points.") % {
            "players": tied,
            "points": points,
        }
    return f"{_in_list(seat, names, viewer)}: {kind}."
