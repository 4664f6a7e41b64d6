"""O1–O4: checking a new game's options and laying out robots, junkyards and the reserve."""

from __future__ import annotations

from .common import (
    COLOURS,
    DEFAULT_MAX_TURNS,
    GEARS_PER_COLOUR,
    GEARS_PER_JUNKYARD_AT_SETUP,
    ROBOTS,
    IllegalMove,
    gettext_noop,
)
from .rng import Rng, seed_state

_OPTION_KEYS = ("advanced", "robots", "names", "max_turns")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seats(seats: object, advanced: bool) -> list[str]:
    if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
        raise IllegalMove(gettext_noop("Seats must be a list of non-empty strings."))
    if len(set(seats)) != len(seats):
        raise IllegalMove(gettext_noop("Every seat must appear only once."))
    low, high = (2, 4) if advanced else (2, 8)
    if not low <= len(seats) <= high:
        message = (
            gettext_noop("The advanced game is for %(low)s to %(high)s players, not %(count)s.")
            if advanced
            else gettext_noop("Out of Gears is for %(low)s to %(high)s players, not %(count)s.")
        )
        raise IllegalMove(message, low=low, high=high, count=len(seats))
    return list(seats)


def _chosen_robots(
    seats: list[str], robots: object, per_seat: int, rng: Rng
) -> dict[str, list[int]]:
    if robots is None:
        pool = list(ROBOTS)
        rng.shuffle(pool)
        return {
            seat: sorted(pool[i * per_seat : (i + 1) * per_seat]) for i, seat in enumerate(seats)
        }
    if not isinstance(robots, dict) or sorted(robots) != sorted(seats):
        raise IllegalMove(
            gettext_noop("The robots option must give robots for every seat, and only for seats.")
        )
    chosen: dict[str, list[int]] = {}
    seen: set[int] = set()
    for seat in seats:
        numbers = robots[seat]
        if not isinstance(numbers, list) or not all(_is_int(n) for n in numbers):
            raise IllegalMove(
                gettext_noop("Seat %(seat)s's robots must be a list of robot numbers."), seat=seat
            )
        if len(numbers) != per_seat:
            message = (
                gettext_noop(
                    "Each player controls %(per)s robots; seat %(seat)s was given %(count)s."
                )
                if per_seat > 1
                else gettext_noop(
                    "Each player controls %(per)s robot; seat %(seat)s was given %(count)s."
                )
            )
            raise IllegalMove(message, per=per_seat, seat=seat, count=len(numbers))
        for n in numbers:
            if n not in COLOURS:
                raise IllegalMove(
                    gettext_noop("There is no robot %(number)s; robots are numbered 1 to 8."),
                    number=n,
                )
            if n in seen:
                raise IllegalMove(
                    gettext_noop("Robot %(number)s was given to more than one seat."), number=n
                )
            seen.add(n)
        chosen[seat] = sorted(numbers)
    return chosen


def new_game(seats: list[str], *, seed: int, options: dict | None = None) -> dict:
    """A fresh game (O1–O4). Unknown option keys are ignored (the site keeps its own there)."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise IllegalMove(gettext_noop("Options must be a dictionary."))
    if not _is_int(seed):
        raise IllegalMove(gettext_noop("The seed must be an integer."))
    advanced = options.get("advanced", False)
    if not isinstance(advanced, bool):
        raise IllegalMove(gettext_noop("The advanced option must be true or false."))
    seats = _check_seats(seats, advanced)
    max_turns = options.get("max_turns", DEFAULT_MAX_TURNS)
    if not _is_int(max_turns) or max_turns < 1:
        raise IllegalMove(gettext_noop("max_turns must be a whole number of at least 1."))
    names = options.get("names") or {}
    if not isinstance(names, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in names.items()
    ):
        raise IllegalMove(gettext_noop("The names option must map seats to names."))

    rng = Rng(seed_state(seed))
    seat_robots = _chosen_robots(seats, options.get("robots"), 2 if advanced else 1, rng)
    in_play = sorted(r for numbers in seat_robots.values() for r in numbers)

    # O3: 11 gears of each colour in play, shuffled face down; reserve[0] is the top.
    reserve = [COLOURS[r] for r in in_play for _ in range(GEARS_PER_COLOUR)]
    rng.shuffle(reserve)
    junkyards: dict[str, list[str]] = {}
    top = 0
    for n in in_play:
        junkyards[str(n)] = reserve[top : top + GEARS_PER_JUNKYARD_AT_SETUP]
        top += GEARS_PER_JUNKYARD_AT_SETUP
    reserve = reserve[top:]

    robots = {}
    for seat in seats:
        for r in seat_robots[seat]:
            robots[r] = {"seat": seat, "gears": [], "circuit": []}
    return {
        "game": "outofgears",
        "seats": seats,
        "advanced": advanced,
        "names": {seat: names[seat] for seat in seats if seat in names},
        "max_turns": max_turns,
        "in_play": in_play,
        "seat_robots": seat_robots,
        "robots": {str(r): robots[r] for r in in_play},
        "junkyards": junkyards,
        "reserve": reserve,
        "rng": rng.state(),
        "turn": 1,
        "programs": {},
        "story": [],
        "over": False,
        "result": None,
    }
