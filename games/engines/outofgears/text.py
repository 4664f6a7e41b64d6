"""Story events as English sentences for the game log (pure; no Django)."""

from __future__ import annotations

from .common import robot_name


def robot_names(view: dict, seat_names: dict[str, str]) -> dict[str, str]:
    """Robot number (a string, as in the view) -> the name of the seat that controls it: the
    site's seat names, not the names frozen in the state at the start (a bot may have taken a
    seat over since)."""
    return {
        key: seat_names.get(r["seat"]) or r.get("player") or "" for key, r in view["robots"].items()
    }


def _robot(robot: int, names: dict | None) -> str:
    player = (names or {}).get(str(robot))
    return f"{robot_name(robot)} ({player})" if player else robot_name(robot)


def _robots(robots: list[int], names: dict | None) -> str:
    parts = [_robot(r, names) for r in robots]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _gears(count: int) -> str:
    return f"{count} gear" if count == 1 else f"{count} gears"


def _stayed(stayed: list[str], place: str) -> str:
    if not stayed:
        return ""
    return f"; {len(stayed)} stayed {place}" if place else f"; {len(stayed)} stayed"


def _sharing(verb: str, who: list[int], took: dict, stayed: list[str], place: str, names) -> str:
    counts = [len(took.get(str(r), [])) for r in who]
    subject = _robots(who, names)
    total = sum(counts)
    if total == 0:
        if not stayed:
            return f"{subject} {verb} but there was nothing to take"
        if len(who) > 1:
            return (
                f"{subject} {verb} but {len(stayed)} could not be shared among {len(who)}, "
                f"so nobody got any"
            )
        return f"{subject} {verb} and got nothing"
    if len(who) == 1:
        colours = ", ".join(took[str(who[0])])
        return f"{subject} {verb} and took {_gears(total)} ({colours}){_stayed(stayed, place)}"
    return f"{subject} {verb} and took {_gears(counts[0])} each{_stayed(stayed, place)}"


def describe(event: dict, names: dict | None = None) -> str:
    """One story event as a sentence; ``names`` maps robot numbers (strings) to player names."""
    kind = event["type"]
    if kind == "defend":
        defender = _robot(event["defender"], names)
        attacker = _robot(event["attacker"], names)
        if event["gear"] is None:
            return f"{defender} defended against {attacker}, who had no gear to give"
        where = f"from {attacker}" if event["source"] == "robot" else f"from {attacker}'s circuit"
        return f"{defender} defended and took a {event['gear']} gear {where}"
    if kind == "attack":
        target = _robot(event["target"], names)
        return _sharing(
            f"attacked {target}",
            event["attackers"],
            event["took"],
            event["stayed"],
            f"with {target}",
            names,
        )
    if kind == "trap":
        n = event["junkyard"]
        if not event["blocked"]:
            return (
                f"{_robots(event['trappers'], names)} trapped junkyard {n} but blocked no "
                f"harvest, so got nothing"
            )
        blocked = _robots(event["blocked"], names)
        return (
            _sharing(
                f"trapped junkyard {n}, blocking {blocked},",
                event["trappers"],
                event["took"],
                event["stayed"],
                "",
                names,
            )
            .replace(",, ", ", ")
            .replace(", and", " and")
        )
    if kind == "harvest":
        return _sharing(
            f"harvested junkyard {event['junkyard']}",
            event["harvesters"],
            event["took"],
            event["stayed"],
            "",
            names,
        )
    if kind == "assemble":
        moved = " and ".join(event["gears"])
        return f"{_robot(event['robot'], names)} moved {moved} to its internal circuit"
    if kind == "explore":
        laid = len(event["laid"])
        if event["missed"]:
            if not laid:
                return "The reserve is empty: no gear was laid on the junkyards"
            return (
                f"Explore laid {_gears(laid)}; the reserve ran out before junkyard "
                f"{event['missed'][0]}"
            )
        return (
            f"Explore laid one gear on each junkyard; {event['reserve_left']} left in the reserve"
        )
    if kind == "end":
        reason = (
            "the turn limit was reached"
            if event["reason"] == "max_turns"
            else ("the reserve is empty and a junkyard is empty")
        )
        winners = event["winners"]
        points = event["scores"][winners[0]]
        who = " and ".join(_robots(event["winner_robots"][s], names) for s in winners)
        if len(winners) > 1:
            return f"The game ended because {reason}. {who} share the win with {points} points"
        return f"The game ended because {reason}. {who} won with {points} points"
    return f"Unknown event {kind}"
