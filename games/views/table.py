"""The table around a game: join, leave, start, invite, resign, a rematch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import errors
from games.actions import deadlines, tables
from games.views.common import (
    answer_error,
    bad_request,
    posted_robots,
)


def _lobby_action(request: HttpRequest, game_id: int, fn, success: str | None = None):
    try:
        result = fn()
    except errors.GameError as exc:
        return answer_error(request, exc, reverse("game", args=[game_id]))
    if success:
        messages.success(request, success)
    return result


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    robots = posted_robots(request)
    if robots is None:
        return bad_request(request, _("Robots are numbered 1 to 8."))
    token = request.POST.get("token") or None
    result = _lobby_action(
        request,
        game_id,
        lambda: tables.join_game(request.user, game_id, robots=robots, token=token),
    )
    if isinstance(result, HttpResponse) and token:
        # Refused (full, started): back to the table by the link, or a private game is a 404.
        return redirect(f"{reverse('game', args=[game_id])}?{urlencode({'token': token})}")
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(
        request, game_id, lambda: tables.leave_game(request.user, game_id), _("You left the game.")
    )
    return result if isinstance(result, HttpResponse) else redirect("my_games")


@login_required
@require_POST
def decline(request: HttpRequest, game_id: int) -> HttpResponse:
    """An invitee's Decline beside Join (issue 34.10): their invitation to this table, or the
    one of the e-mail link they followed (its token posted as `invitation`: the join form's
    `token` is the table's link), turned down through the one decline of the write path
    (tables.decline_invitation, the e-mail link's too)."""
    token = request.POST.get("invitation", "")[:64]

    def do():
        invitation = tables.invitation_to_decline(request.user, game_id, token)
        tables.decline_invitation(invitation)
        return invitation

    result = _lobby_action(request, game_id, do)
    if isinstance(result, HttpResponse):
        return result
    messages.success(
        request, _("You declined %(name)s’s invitation.") % {"name": result.inviter.name}
    )
    return redirect("my_games")


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(request, game_id, lambda: tables.start_game(request.user, game_id))
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    who = request.POST.get("who", "")[:254]
    result = _lobby_action(
        request,
        game_id,
        lambda: tables.invite(request.user, game_id, who),
        _("Invitation sent to %(names)s.") % {"names": who.strip()},
    )
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """Offer a rematch of a finished game, or accept the one offered: to the new table."""
    result = _lobby_action(request, game_id, lambda: tables.rematch(request.user, game_id))
    return result if isinstance(result, HttpResponse) else redirect(result)


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(
        request,
        game_id,
        lambda: deadlines.resign(request.user, game_id),
        _("You resigned; a bot plays your seat from now on."),
    )
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)
