"""Out of Gears' words in the reader's language: robots, colours, program cards and the story's
sentences, written at the edge from the engine's story events, in the language active now
(docs/i18n.md). Whole sentences with named placeholders; where Italian conjugates the verb for
one robot or several, the sentence is an ngettext on their number (English reads the same).

`describe` reads only what is in the event it is given. Which seat controls which robot (no
words) is the engine's (games/engines/outofgears/text.py, `robot_names`).
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from games.words import colour_name, robot_name


def program_sentence(entry: dict) -> str:
    """A robot's program as a player says it: "Harvest junkyard 3", "Attack Blue", "Defend"."""
    action, number, robot = entry["action"], entry["number"], entry["robot"]
    if action == "attack":
        if number == robot:
            return pgettext("program card", "Defend")
        return gettext("Attack %(robot)s") % {"robot": robot_name(number)}
    if action == "harvest":
        return gettext("Harvest junkyard %(number)s") % {"number": number}
    return gettext("Trap junkyard %(number)s") % {"number": number}


def join(items: list[str]) -> str:
    """ "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def _and(items: list[str]) -> str:
    """ "A and B and C" (every pair joined by "and", as the story has always said it)."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = gettext("%(first)s and %(last)s") % {"first": out, "last": item}
    return out


def _robot(robot: int, names: dict | None) -> str:
    player = (names or {}).get(str(robot))
    return f"{robot_name(robot)} ({player})" if player else robot_name(robot)


def _robots(robots: list[int], names: dict | None) -> str:
    return join([_robot(r, names) for r in robots])


def _gears(count: int) -> str:
    return ngettext("%(count)s gear", "%(count)s gears", count) % {"count": count}


def _stayed(stayed: list[str], target: str | None) -> str:
    """What stayed behind, as the end of a sentence ("; 1 stayed with Blue"), or nothing."""
    if not stayed:
        return ""
    n = len(stayed)
    if target:
        return ngettext(
            "; %(count)s stayed with %(target)s", "; %(count)s stayed with %(target)s", n
        ) % {"count": n, "target": target}
    return ngettext("; %(count)s stayed", "; %(count)s stayed", n) % {"count": n}


def _sharing(
    action: str, action_but: str, who: list[int], took: dict, stayed: list, target, names
) -> str:
    """The end of an attack's, a trap's or a harvest's sentence: what each robot of `who` got.
    `action`: the sentence's start ("Red attacked Blue"), `action_but` the same before "but"."""
    counts = [len(took.get(str(r), [])) for r in who]
    n = len(who)
    total = sum(counts)
    if total == 0:
        if not stayed:
            return ngettext(
                "%(action)s but there was nothing to take",
                "%(action)s but there was nothing to take",
                n,
            ) % {"action": action_but}
        if n > 1:
            return ngettext(
                "%(action)s but %(stayed)s could not be shared among %(count)s, so nobody got any",
                "%(action)s but %(stayed)s could not be shared among %(count)s, so nobody got any",
                n,
            ) % {"action": action_but, "stayed": len(stayed), "count": n}
        return ngettext("%(action)s and got nothing", "%(action)s and got nothing", n) % {
            "action": action
        }
    rest = _stayed(stayed, target)
    if n == 1:
        colours = ", ".join(colour_name(c) for c in took[str(who[0])])
        return gettext("%(action)s and took %(gears)s (%(colours)s)%(stayed)s") % {
            "action": action,
            "gears": _gears(total),
            "colours": colours,
            "stayed": rest,
        }
    return ngettext(
        "%(action)s and took %(gears)s each%(stayed)s",
        "%(action)s and took %(gears)s each%(stayed)s",
        n,
    ) % {"action": action, "gears": _gears(counts[0]), "stayed": rest}


def describe(event: dict, names: dict | None = None) -> str:
    """One story event as a sentence; ``names`` maps robot numbers (strings) to player names."""
    kind = event["type"]
    if kind == "defend":
        params = {
            "defender": _robot(event["defender"], names),
            "attacker": _robot(event["attacker"], names),
        }
        if event["gear"] is None:
            return gettext(
                "%(defender)s defended against %(attacker)s, who had no gear to give"
            ) % (params)
        params["colour"] = colour_name(event["gear"])
        if event["source"] == "robot":
            return gettext("%(defender)s defended and took a %(colour)s gear from %(attacker)s") % (
                params
            )
        return (
            gettext("%(defender)s defended and took a %(colour)s gear from %(attacker)s's circuit")
            % params
        )
    if kind == "attack":
        who = event["attackers"]
        target = _robot(event["target"], names)
        action = ngettext(
            "%(robots)s attacked %(target)s", "%(robots)s attacked %(target)s", len(who)
        ) % {"robots": _robots(who, names), "target": target}
        return _sharing(action, action, who, event["took"], event["stayed"], target, names)
    if kind == "trap":
        who = event["trappers"]
        params = {"robots": _robots(who, names), "junkyard": event["junkyard"]}
        if not event["blocked"]:
            return (
                ngettext(
                    "%(robots)s trapped junkyard %(junkyard)s but blocked no harvest, "
                    "so got nothing",
                    "%(robots)s trapped junkyard %(junkyard)s but blocked no harvest, "
                    "so got nothing",
                    len(who),
                )
                % params
            )
        params["blocked"] = _robots(event["blocked"], names)
        action = (
            ngettext(
                "%(robots)s trapped junkyard %(junkyard)s, blocking %(blocked)s",
                "%(robots)s trapped junkyard %(junkyard)s, blocking %(blocked)s",
                len(who),
            )
            % params
        )
        return _sharing(action, action + ",", who, event["took"], event["stayed"], None, names)
    if kind == "harvest":
        who = event["harvesters"]
        action = ngettext(
            "%(robots)s harvested junkyard %(junkyard)s",
            "%(robots)s harvested junkyard %(junkyard)s",
            len(who),
        ) % {"robots": _robots(who, names), "junkyard": event["junkyard"]}
        return _sharing(action, action, who, event["took"], event["stayed"], None, names)
    if kind == "assemble":
        return gettext("%(robot)s moved %(gears)s to its internal circuit") % {
            "robot": _robot(event["robot"], names),
            "gears": _and([colour_name(c) for c in event["gears"]]),
        }
    if kind == "explore":
        laid = len(event["laid"])
        if event["missed"]:
            if not laid:
                return gettext("The reserve is empty: no gear was laid on the junkyards")
            return gettext(
                "Explore laid %(gears)s; the reserve ran out before junkyard %(junkyard)s"
            ) % {"gears": _gears(laid), "junkyard": event["missed"][0]}
        return gettext("Explore laid one gear on each junkyard; %(left)s left in the reserve") % {
            "left": event["reserve_left"]
        }
    if kind == "end":
        winners = event["winners"]
        robots = [r for s in winners for r in event["winner_robots"][s]]
        params = {
            "winners": _and([_robots(event["winner_robots"][s], names) for s in winners]),
            "points": event["scores"][winners[0]],
        }
        n = len(robots)
        limit = event["reason"] == "max_turns"
        if len(winners) > 1:
            if limit:
                return (
                    ngettext(
                        "The game ended because the turn limit was reached. %(winners)s share the "
                        "win with %(points)s points",
                        "The game ended because the turn limit was reached. %(winners)s share the "
                        "win with %(points)s points",
                        n,
                    )
                    % params
                )
            return (
                ngettext(
                    "The game ended because the reserve is empty and a junkyard is empty. "
                    "%(winners)s share the win with %(points)s points",
                    "The game ended because the reserve is empty and a junkyard is empty. "
                    "%(winners)s share the win with %(points)s points",
                    n,
                )
                % params
            )
        if limit:
            return (
                ngettext(
                    "The game ended because the turn limit was reached. %(winners)s won with "
                    "%(points)s points",
                    "The game ended because the turn limit was reached. %(winners)s won with "
                    "%(points)s points",
                    n,
                )
                % params
            )
        return (
            ngettext(
                "The game ended because the reserve is empty and a junkyard is empty. %(winners)s "
                "won with %(points)s points",
                "The game ended because the reserve is empty and a junkyard is empty. %(winners)s "
                "won with %(points)s points",
                n,
            )
            % params
        )
    return gettext("Unknown event %(kind)s") % {"kind": kind}
