"""The structure the Geared log needs beyond the events themselves: each rearrangement's builds
numbered as the table showed them. The log's sentences are written at the edge, in the
reader's language (games/pages/geared_text.py)."""

from __future__ import annotations


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
