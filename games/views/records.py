"""Game records on the web: a finished game replayed step by step, its record downloaded, a
record imported to replay it here."""

from __future__ import annotations

import copy

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import errors
from games.actions import record_import
from games.reads import records, replay, seating
from games.views.common import (
    visible_game,
)
from games.views.game import game_context


@require_GET
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The record of a finished game, as a JSON download, for whoever may see the game."""
    game = visible_game(request, game_id, token=request.GET.get("token"))
    try:
        record = records.export(game)
    except errors.GameError as exc:
        raise Http404(exc.message) from None
    response = HttpResponse(records.dumps(record), content_type="application/json")
    name = f"geartable-{game.kind}-{game.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """A record pasted or uploaded: replayed by the engine, then shown step by step."""
    error, status = "", 200
    if request.method == "POST":
        try:
            upload = request.FILES.get("file")
            text = (
                upload.read(records.max_bytes() + 1) if upload else request.POST.get("record", "")
            )
            if not text.strip():
                raise errors.GameError(_("Choose a record file or paste one."))
            game = record_import.import_record(request.user, text)
        except RequestDataTooBig:
            error, status = records.size_message(), 413
        except errors.GameError as exc:
            error, status = exc.message, exc.status
        else:
            return redirect(reverse("game_replay", args=[game.pk]) + "?step=0")
    return render(
        request,
        "games/import.html",
        {
            "error": error,
            "pasted": request.POST.get("record", "")[:200_000],
            "nav_section": "",
            "max_kb": records.max_bytes() // 1000,
            "max_moves": records.max_moves(),
            "per_day": settings.GEARTABLE_RECORD_IMPORTS_PER_DAY,
        },
        status=status,
    )


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game that is over, step by step: replayed from its seed and its move log, each step
    shown as the visitor's own seat saw it then (or as a spectator). It opens on the deal
    (step 0), and only its last step shows the final standings: no spoiler (issue 27.6). With
    htmx a step is the `#replay` fragment, swapped in place (the links push the step's URL);
    htmx's history restore (Back, with no snapshot kept) gets the whole page."""
    game = visible_game(request, game_id, token=request.GET.get("token"))
    if not game.is_over or not game.state:
        raise Http404(_("A game can be replayed once it is over."))
    moves = replay.moves_of(game)
    try:
        step = min(max(int(request.GET.get("step", 0)), 0), len(moves))
    except ValueError:
        step = 0
    past = copy.copy(game)
    past.state = replay.state_at(game, moves, step)
    seat = seating.seat_of(game, request.user)
    context = game_context(request, past, seat, query={}, replay=True)
    if step < len(moves):
        context.pop("standings", None)  # the end is for the last step only
    context.update(
        step=step,
        steps=len(moves),
        move=moves[step - 1] if step else None,
        board=f"games/{game.kind}.html#game",
        jumps=_jumps(step, len(moves)),
    )
    fragment = request.htmx and not request.htmx.history_restore_request
    return render(request, "games/replay.html" + ("#replay" if fragment else ""), context)


def _jumps(step: int, steps: int) -> list[dict]:
    """The replay bar's links: the start, ten back, one back, one on, ten on, the end; `key`
    names the keyboard's way to it (static/js/geartable.js: Home, ←, →, End). Where two lead
    to the same step, one link, the first of this list: so at step 0 of 10 the bar says "End",
    not "10 ▶" (a player looks for the end by its name)."""
    marks = [
        (0, _("Start"), "start"),
        (step - 1, "◀ " + _("Previous"), "prev"),
        (step + 1, _("Next") + " ▶", "next"),
        (steps, _("End"), "end"),
        (step - 10, f"◀ {step - 10}", ""),
        (step + 10, f"{step + 10} ▶", ""),
    ]
    jumps, seen = [], {step}
    for n, label, key in marks:
        if 0 <= n <= steps and n not in seen:
            seen.add(n)
            jumps.append({"n": n, "label": label, "key": key})
    return sorted(jumps, key=lambda jump: jump["n"])
