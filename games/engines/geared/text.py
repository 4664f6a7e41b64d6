"""English sentences for viewed Geared events (the output of engine.view / views.view_event).

`describe` reads only what is in the event it is given, so a viewed event cannot make it reveal
a hidden card.
"""

from __future__ import annotations

from games.engines.geared.cards import card_name


def _who(seat: str | None, names: dict[str, str], viewer: str | None) -> str:
    if seat is not None and seat == viewer:
        return "You"
    return names.get(seat, f"Player {seat}") if seat is not None else "Nobody"


def _whose(seat: str, names: dict[str, str], viewer: str | None) -> str:
    return "your" if seat == viewer else f"{names.get(seat, f'Player {seat}')}'s"


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe(event: dict, names: dict[str, str], viewer: str | None) -> str:
    """One sentence, e.g. "Matt stole your Level 5 Wheels", "You drew a Level 2 Frame"."""
    kind = event["type"]
    seat = event.get("seat")
    who = _who(seat, names, viewer)
    if kind == "played":
        level = event.get("level")
        cards = [_a(card_name(c, level)) for c in event["cards"]]
        return f"{who} played {_join(cards)}."
    if kind == "rearranged":
        part = card_name(event["card"], event.get("level"))
        if "from_build" not in event:  # not numbered by with_build_numbers()
            return f"{who} moved {_a(part)} from one build to another."
        to = f"build {event['to_build']}" if event["to_build"] else "a new build"
        return f"{who} moved {_a(part)} from build {event['from_build']} to {to}."
    if kind == "removed":
        part = card_name(event["target"], event.get("target_level"))
        owner = _whose(event["owner"], names, viewer)
        if event["owner"] == seat:
            owner = "your own" if seat == viewer else "their own"
        return f"{who} removed {owner} {part}."
    if kind == "stole":
        part = card_name(event["target"], event.get("target_level"))
        return f"{who} stole {_whose(event['owner'], names, viewer)} {part}."
    if kind == "swapped":
        mine = card_name(event["mine"], event.get("mine_level"))
        theirs = card_name(event["theirs"], event.get("theirs_level"))
        own = "your" if seat == viewer else "their"
        return f"{who} swapped {own} {mine} for {_whose(event['owner'], names, viewer)} {theirs}."
    if kind == "completed":
        if event["set"]:
            return f"{who} completed a Level {event['level']} set: {event['points']} points."
        return f"{who} completed a bike: {event['points']} points."
    if kind == "discarded":
        return f"{who} discarded {_a(card_name(event['card']))}."
    if kind == "passed":
        return f"{who} passed."
    if kind == "drew":
        if "cards" in event and seat == viewer:
            return f"{who} drew {_join([_a(card_name(c)) for c in event['cards']])}."
        count = event["count"]
        return f"{who} drew {count} card{'s' if count != 1 else ''}."
    if kind == "reshuffled":
        return (
            f"The discard pile and {event['bikes']} completed "
            f"bike{'s' if event['bikes'] != 1 else ''} were shuffled into a new draw pile "
            f"of {event['count']} cards; scores are kept."
        )
    if kind == "game_over":
        winners = event["winners"]
        scores = event["scores"]
        if len(winners) == 1:
            return f"{_who(winners[0], names, viewer)} won with {scores[winners[0]]} points."
        tied = _join([_who(w, names, viewer) for w in winners])
        return f"The game is over: {tied} tie with {scores[winners[0]]} points."
    return f"{who}: {kind}."


def with_build_numbers(events: list[dict], history: list[dict]) -> list[dict]:
    """`events` with each rearrange's builds numbered as the table showed them when it was made:
    1-based, in their owner's order, the way the board labels them ("Build 2"). The engine
    records build ids (which count every build of the game), so the numbers are found by
    following the builds through `history`, the game's whole event list."""
    numbers = _rearrange_numbers(history)
    return [{**e, **numbers[e["n"]]} if e.get("n") in numbers else e for e in events]


def _rearrange_numbers(history: list[dict]) -> dict[int, dict]:
    owned: dict[str, list] = {}  # seat -> its incomplete builds' ids, in the table's order
    size: dict[object, int] = {}  # build id -> parts in it

    def add(seat: str, build: object) -> None:
        if build not in size:
            owned.setdefault(seat, []).append(build)
            size[build] = 0
        size[build] += 1

    def take(build: object) -> None:
        size[build] = size.get(build, 1) - 1
        if size[build] <= 0:
            drop(build)

    def drop(build: object) -> None:
        size.pop(build, None)
        for builds in owned.values():
            if build in builds:
                builds.remove(build)

    def number(seat: str, build: object) -> int | None:
        builds = owned.get(seat, [])
        return builds.index(build) + 1 if build in builds else None

    out: dict[int, dict] = {}
    for e in history:
        kind, seat = e["type"], e.get("seat")
        if kind == "played":
            for build in e["builds"]:
                add(seat, build)
        elif kind == "rearranged":
            out[e["n"]] = {
                "from_build": number(seat, e["source"]),
                "to_build": number(seat, e["to"]),
            }
            take(e["source"])
            add(seat, e["to"])
        elif kind == "removed":
            take(e["source"])
        elif kind == "stole":
            take(e["source"])
            add(seat, e["to"])
        elif kind == "completed":
            drop(e["build"])
    return out
