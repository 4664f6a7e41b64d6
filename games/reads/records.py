"""Game records: a finished game as one JSON document (seed, seats, options, the move log and the
engine version), and the other way, a record read and replayed (its import, which writes the
game, is games/actions/record_import.py).

A record is complete: `replay_record` rebuilds the final state from it with the engine alone,
so a record exported here replays anywhere the same engine version runs. The format is in
docs/records.md. Only a finished game has a record: its seed deals every hand, so while a game
is in play it stays on the server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engines
from games.engines.interface import IllegalMove
from games.errors import GameError
from games.models import BotKind, Game, Move, Status
from games.reads import replay

FORMAT = "geartable-record"


FORMAT_VERSION = 1


# The seat counts of each game with its default options (a record's seats are checked by them).
LIMITS = {kind: eng.seat_range({}) for kind, eng in engines.ENGINES.items()}
NUL_MESSAGE = gettext_noop(
    "This record contains a NUL character, which nothing on Geartable accepts."
)


def max_moves() -> int:
    """A real game has a few hundred moves (Geared ~200 with 2 players, ~450 with 6 at 2,000
    points; Out of Gears ~60 turns): the default, 2,000, is far beyond; each is replayed."""
    return settings.GEARTABLE_RECORD_MAX_MOVES


def max_bytes() -> int:
    return settings.GEARTABLE_RECORD_MAX_BYTES


def size_message() -> str:
    return _("A record is at most %(size)s kB.") % {"size": f"{max_bytes() // 1000:,}"}


class RecordError(GameError):
    """A record that cannot be imported, with the sentence that says why."""


def export(game: Game) -> dict:
    """The record of a finished game. Nothing in it is hidden any more: the game is over."""
    if game.status != Status.FINISHED or game.seed is None:
        raise GameError(_("Only a finished game has a record."), status=409)
    seats = sorted((s for s in game.table if s.position), key=lambda s: s.position)
    moves = replay.moves_of(game)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine": {"kind": game.kind, "version": engines.VERSIONS[game.kind]},
        "game": {
            "id": game.pk,
            "started": _iso(game.started),
            "finished": _iso(game.finished),
            "imported": game.imported,
        },
        "seed": game.seed,
        "options": game.options,
        "seats": [
            {"seat": s.seat_id, "name": s.name, **({"bot": s.bot} if s.bot else {})} for s in seats
        ],
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat.seat_id if m.seat else None,
                "kind": m.kind,
                "action": m.action,
            }
            for m in moves
        ],
        "result": game.result,
    }


def _iso(when) -> str | None:
    return when.isoformat() if when else None


def dumps(record: dict) -> str:
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class Replayed:
    kind: str
    seed: int
    options: dict
    seats: list[dict]
    moves: list[dict]
    state: dict


def loads(text: str | bytes) -> dict:
    """The JSON of a record, or a RecordError that says what is wrong with it."""
    if len(text) > max_bytes():
        raise RecordError(size_message())
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError(_("That is not a game record: it is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise RecordError(_("That is not a game record: a record is a JSON object."))
    if _has_nul(data):
        raise RecordError(_(NUL_MESSAGE))
    return data


def _has_nul(data: object) -> bool:
    """A NUL (JSON's \\u0000) in any string or key at any depth: PostgreSQL refuses to store one.
    Iterative: a record is at most max_bytes() but may nest as deep as the JSON parser allows."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def replay_record(data: dict) -> Replayed:
    """Check a record field by field and replay it with the engine: the final state, or a
    RecordError naming the first thing that does not hold (the move number for an illegal move)."""
    if data.get("format") != FORMAT:
        raise RecordError(_('That is not a game record ("format" must be "geartable-record").'))
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            _("This site reads records of format version %(version)s only.")
            % {"version": FORMAT_VERSION}
        )
    engine = data.get("engine")
    kind = engine.get("kind") if isinstance(engine, dict) else None
    if kind not in engines.ENGINES:
        raise RecordError(_("The record's game is neither Geared nor Out of Gears."))
    if engine.get("version") != engines.VERSIONS[kind]:
        raise RecordError(
            _(
                "The record was made with version %(theirs)s of the rules engine; this site runs "
                "version %(ours)s, which may replay it differently."
            )
            % {"theirs": repr(engine.get("version")), "ours": engines.VERSIONS[kind]}
        )
    seed, options = data.get("seed"), data.get("options")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise RecordError(_("The record's seed must be a whole number."))
    if not isinstance(options, dict):
        raise RecordError(_("The record's options must be an object."))
    eng = engines.engine(kind)
    # Only what the engine reads: anything else (a site's own keys, such as who a rematch
    # followed, or junk) is the sender's and is neither stored nor trusted.
    options = {key: value for key, value in options.items() if key in eng.OPTIONS}
    seats = data.get("seats")
    low, high = LIMITS[kind]
    if not isinstance(seats, list) or not low <= len(seats) <= high:
        raise RecordError(
            _("A record of this game has %(low)s to %(high)s seats.") % {"low": low, "high": high}
        )
    seat_ids = [str(n) for n in range(1, len(seats) + 1)]
    for expected, seat in zip(seat_ids, seats, strict=True):
        if not isinstance(seat, dict) or seat.get("seat") != expected:
            raise RecordError(
                _('Seats are listed in order as "1" to "%(last)s".') % {"last": len(seats)}
            )
        name = seat.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise RecordError(
                _("Seat %(seat)s needs a name (at most 60 characters).") % {"seat": expected}
            )
        if seat.get("bot", "") not in ("", *BotKind.values):
            raise RecordError(_("Seat %(seat)s's bot is not one of ours.") % {"seat": expected})
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > max_moves():
        raise RecordError(
            _("The record's moves must be a list of at most %(count)s.")
            % {"count": f"{max_moves():,}"}
        )
    try:
        state = eng.new_game(seat_ids, seed=seed, options=options)
    except Exception:  # noqa: BLE001 - any refusal of the options is the record's fault
        raise RecordError(_("The engine refuses the record's options.")) from None
    for n, move in enumerate(moves, start=1):
        if not isinstance(move, dict) or move.get("seq") != n:
            raise RecordError(_("Move %(n)s is missing or out of order.") % {"n": n})
        state = _replay_move(eng, state, n, move, seat_ids)
    if not eng.is_over(state):
        raise RecordError(_("The record stops before the end of the game."))
    return Replayed(kind, seed, options, seats, moves, state)


def _replay_move(eng, state: dict, n: int, move: dict, seat_ids: list[str]) -> dict:
    kind = move.get("kind")
    if eng.is_over(state):
        raise RecordError(_("Move %(n)s comes after the end of the game.") % {"n": n})
    try:
        if kind == Move.Kind.RESOLVE:
            if not eng.needs_resolution(state):
                raise RecordError(_("Move %(n)s resolves a turn that is not complete.") % {"n": n})
            return eng.resolve(state)
        if kind not in (Move.Kind.ACTION, Move.Kind.TIMEOUT):
            raise RecordError(
                _("Move %(n)s has an unknown kind %(kind)s.") % {"n": n, "kind": repr(kind)}
            )
        if move.get("seat") not in seat_ids:
            raise RecordError(_("Move %(n)s names no seat of the game.") % {"n": n})
        if not isinstance(move.get("action"), dict):
            raise RecordError(_("Move %(n)s has no action.") % {"n": n})
        return eng.apply(state, move["seat"], move["action"])
    except IllegalMove as exc:
        raise RecordError(
            _("Move %(n)s is not legal: %(refusal)s") % {"n": n, "refusal": exc.message}
        ) from None
    except RecordError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        raise RecordError(_("Move %(n)s is malformed.") % {"n": n}) from None
