"""A player's private notes on a game: saved in place, shown to nobody else (docs/notes.md)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import errors
from games.actions import notes
from games.reads import seating
from games.views.common import visible_game


@login_required
@require_POST
def save_note(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save the seated player's note. Who may not see the game gets a 404, who may see it
    without a seat (a spectator, a player who left) a 403; nothing is stored for either."""
    game = visible_game(request, game_id, token=request.GET.get("token"))
    seat = seating.seat_of(game, request.user)
    if seat is None:
        return _answer(request, game, _("Only the game's players keep notes on it."), status=403)
    try:
        raw = request.POST.get("text")
    except RequestDataTooBig:
        return _answer(request, game, _("That request is too large."), status=400)
    if raw is None:
        return _answer(request, game, _("The note's text is missing."), status=400)
    try:
        notes.save_note(game, request.user, raw)
    except errors.GameError as exc:
        return _answer(request, game, exc.message, status=exc.status)
    return _answer(request, game, "", status=200)


def _answer(request: HttpRequest, game, error: str, *, status: int) -> HttpResponse:
    """With htmx, the form's status line ("Saved", or the sentence); without, back to the game
    with the same words as a message."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, _("Your notes are saved."))
        return redirect(game.get_absolute_url() + "#notes")
    return render(
        request,
        "games/_notes.html#status",
        {"note_error": error, "note_saved": not error},
        status=status,
    )
