"""A game record imported (docs/records.md): replayed with the engine alone, then written as a
finished game of this site, private to the importer; at most GEARTABLE_RECORD_IMPORTS_PER_DAY
per player."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts import names
from accounts.models import User
from games import engines
from games.models import BotKind, Game, Move, Seat, Status
from games.reads.records import RecordError, loads, replay_record


def import_record(user: User, text: str | bytes) -> Game:
    """A record replayed into a finished game of this site, private to the importer (and anyone
    they give its link to); it counts for nobody's statistics. At most
    GEARTABLE_RECORD_IMPORTS_PER_DAY per player: each one replays every move."""
    _check_import_quota(user)
    data = loads(text)
    seats = data.get("seats")
    if isinstance(seats, list) and isinstance(data.get("options"), dict):
        shown = _seat_names(user, seats)
        data["options"] = {**data["options"], "names": shown}  # the engine's are the page's
    done = replay_record(data)
    eng = engines.engine(done.kind)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one import at a time
        _check_import_quota(user)
        now = timezone.now()
        game = Game.objects.create(
            kind=done.kind,
            status=Status.FINISHED,
            seat_count=len(done.seats),
            options=done.options,
            seed=done.seed,
            state=done.state,
            result=eng.result(done.state),
            version=len(done.moves) + 1,
            move_count=len(done.moves),
            turn=eng.turn(done.state),
            creator=user,
            imported=True,
            started=now,
            finished=now,
        )
        bots = _bot_numbers(done.seats)
        seats = Seat.objects.bulk_create(
            Seat(
                game=game,
                position=int(s["seat"]),
                bot=s.get("bot", ""),
                bot_number=bots.get(s["seat"], 0),
                # A bot seat is named as the site names its bots ("Greedy bot 2").
                recorded_name="" if s.get("bot") else done.options["names"][s["seat"]],
            )
            for s in done.seats
        )
        by_id = {s.seat_id: s for s in seats}
        Move.objects.bulk_create(
            Move(
                game=game,
                seq=m["seq"],
                seat=by_id.get(m.get("seat")) if m["kind"] != Move.Kind.RESOLVE else None,
                kind=m["kind"],
                action=m.get("action") if m["kind"] != Move.Kind.RESOLVE else None,
            )
            for m in done.moves
        )
    return game


def _check_import_quota(user: User) -> None:
    limit = settings.GEARTABLE_RECORD_IMPORTS_PER_DAY
    since = timezone.now() - timedelta(days=1)
    done = Game.objects.filter(creator=user, imported=True, created__gte=since).count()
    if done >= limit:
        raise RecordError(
            f"You have imported {done} records in the last 24 hours, the most a player may. "
            "Try again tomorrow.",
            status=429,
        )


def _bot_numbers(seats: list[dict]) -> dict[str, int]:
    bots = [s["seat"] for s in seats if s.get("bot")]
    return {seat: n for n, seat in enumerate(bots, start=1)}


def _seat_names(user: User, seats: list) -> dict[str, str]:
    """The name each seat is shown by: a player's seat by its record's name, which must pass the
    rules of players' names (accounts/names.py: not another player's username, a bot's name,
    "You", nor control or invisible characters; the importer's own username may be used); a
    bot's seat by the site's name for its bot, whatever the record says."""
    shown = {}
    bots = _bot_numbers(
        [s for s in seats if isinstance(s, dict) and isinstance(s.get("seat"), str)]
    )
    for n, seat in enumerate(seats, start=1):
        if not isinstance(seat, dict) or not isinstance(seat.get("seat"), str):
            continue  # replay_record names what is wrong with it
        name = seat.get("name")
        if seat.get("bot") in BotKind.values:
            shown[seat["seat"]] = f"{BotKind(seat['bot']).label} {bots[seat['seat']]}"
            continue
        if not isinstance(name, str) or not name.strip():
            continue
        try:
            shown[seat["seat"]] = names.check_name(name, user=user, field="seat name")
        except ValidationError as exc:
            raise RecordError(f"Seat {n}: {exc.messages[0]}") from None
    return shown
