"""A game's chat: its log, a message said to the table, a report to the moderators."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import errors
from games.actions import moderation
from games.models import ChatMessage, chat_messages
from games.reads import seating
from games.views.common import (
    visible_game,
)


def _chat_response(request, game_id: int, *, error: str = "", notice: str = "", status=200):
    """The chat log: for whoever may watch the game (players write, the others read)."""
    game = visible_game(request, game_id, token=request.GET.get("token"))
    seat = seating.seat_of(game, request.user)
    if not request.htmx and request.method == "POST":
        if error:
            messages.error(request, error)
        elif notice:
            messages.success(request, notice)
        return redirect(game)
    context = {
        "game": game,
        "chat_messages": chat_messages(game, request.user),
        "chat_error": error,
        "chat_notice": notice,
        "chat_read_only": seat is None or request.user.is_bot,  # a bot chats by the API
        "former_seat": None if seat else seating.former_seat_of(game, request.user),
    }
    return render(request, "games/chat.html#log", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the chat log fragment. POST: say something to the table (players only)."""
    if request.method == "POST":
        try:
            moderation.post_chat(request.user, game_id, request.POST.get("text", ""))
        except errors.GameError as exc:
            if exc.status == 404:
                raise Http404(exc.message) from None
            return _chat_response(request, game_id, error=exc.message, status=exc.status)
    return _chat_response(request, game_id)


@login_required
@require_POST
def chat_report(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    if not ChatMessage.objects.filter(pk=message_id, game_id=game_id).exists():
        raise Http404(_("There is no such message."))
    try:
        moderation.report_message(request.user, message_id, request.POST.get("reason", ""))
    except errors.GameError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        return _chat_response(request, game_id, error=exc.message, status=exc.status)
    return _chat_response(request, game_id, notice=_("Thank you: a moderator will look at it."))
