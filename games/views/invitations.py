"""Invitation links from e-mails: accept one (take the seat), or decline all from now on."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games import errors
from games.actions import tables
from games.live import cache as live
from games.models import Game, Invitation, Status
from games.pages import page
from games.reads import access, invitations, seating
from games.views.common import (
    answer_error,
    bad_request,
    posted_robots,
)


@require_http_methods(["GET", "POST"])
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link in an invitation e-mail. Not logged in: sign up (or log in) and come back here.
    GET shows the table with a Join button, and changes nothing (a link on any other site, or
    a mail scanner, must not seat anyone); only that button's POST takes the seat."""
    if not Invitation.objects.filter(token=token).exists():
        raise Http404(_("This invitation link is not valid."))
    here = reverse("accept_invitation", args=[token])
    if not request.user.is_authenticated:
        messages.info(request, _("Sign up or log in to take your seat."))
        return redirect(f"{reverse('account_signup')}?next={here}")
    if request.method == "POST":
        robots = posted_robots(request)
        if robots is None:
            return bad_request(request, _("Robots are numbered 1 to 8."))
        try:
            game = tables.accept_email_invitation(request.user, token, robots=robots)
        except errors.GameError as exc:
            return answer_error(request, exc, here)
        return redirect(game)
    try:
        invitation = invitations.email_invitation_for(request.user, token)
    except errors.GameError as exc:
        raise Http404(exc.message) from None
    game = Game.objects.with_table(invitation.game_id)
    seat = seating.seat_of(game, request.user)
    if seat is not None:
        return redirect(game)  # already at the table
    if game.status != Status.OPEN:
        messages.error(
            request,
            _("This game has already started.")
            if game.is_active
            else _("This table is no longer waiting for players."),
        )
        return redirect("my_games")
    context = {
        "game": game,
        "seat": None,
        "seats": game.table,
        "invitation": invitation,
        "join_action": here,
        # The invitation's link seats its holder as the table's link does (its join token).
        "poll_key": live.issue(game.pk, request.user, None, access.Ties(link=True).bits()),
        **page(game.kind).table_context(game),
    }
    return render(request, "games/table.html", context)


@csrf_exempt  # RFC 8058 one-click (List-Unsubscribe-Post): mail clients POST without a session
@require_http_methods(["GET", "POST"])
def decline_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """From an e-mail invitation: its address never gets another one. GET asks (mail scanners
    follow links); POST does it. No log-in: the address may have no account."""
    # An e-mail invitation, even once taken by a player (its row then names them).
    invitation = Invitation.objects.filter(token=token, via=Invitation.Via.EMAIL).first()
    if invitation is None:
        raise Http404(_("This invitation link is not valid."))
    done = request.method == "POST"
    if done:  # this table's invitation declined too, and the address never invited again
        tables.decline_invitation(invitation, never_again=True)
    return render(request, "games/decline.html", {"invitation": invitation, "done": done})
