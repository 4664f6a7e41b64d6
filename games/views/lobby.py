"""The lobby: the open tables and the games to watch, and the new game form."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import errors
from games.actions import tables
from games.forms import NewGameForm
from games.live import cache as live
from games.models import Game, Status, table_prefetch
from games.reads import players
from games.views.common import bad_request

INVITES_MAX = 7  # a table has at most eight seats, one of them the creator's
NAME_MAX = 150  # a username's length (AbstractUser)


def _invite_choices(user, ticked: list[str]) -> list[tuple[User, bool]]:
    """The new table form's invite box (issue 27.2): the players named to play again with
    (ticked), then the people this user played with, then the ones they follow. Three queries
    at most, for a logged-in player only."""
    if not user.is_authenticated:
        return []
    wanted = {name.lower() for name in ticked}
    named = []
    if wanted:
        named = list(
            User.objects.filter(is_active=True, username__in=ticked)
            .exclude(pk=user.pk)
            .only("username", "display_name", "is_active")
        )
    found = {u.pk for u in named}
    choices = [(u, True) for u in named]
    for u in players.invite_suggestions(user):
        if u.pk not in found:
            choices.append((u, u.username.lower() in wanted))
    return choices


def _names(raw: list[str]) -> list[str] | None:
    """The usernames asked for (`with=a,b` or the invite boxes), or None if no form of ours
    sends them."""
    names = [n.strip() for n in raw if n.strip()]
    if len(names) > INVITES_MAX or any(len(n) > NAME_MAX for n in names):
        return None
    return list(dict.fromkeys(names))


def _render_lobby(
    request: HttpRequest, form: NewGameForm, status: int = 200, ticked: list[str] = ()
) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {
            "lists": _lobby_lists(translation.get_language()),
            "form": form,
            "blank_form": "" if form.is_bound else _blank_form_html(translation.get_language()),
            "invite_choices": _invite_choices(request.user, list(ticked)),
            "nav_section": "lobby",
        },
        status=status,
    )


# The lobby's lists (open tables, games to watch) are the same for every visitor: drawn once and
# kept this long, and forgotten at once when a public table opens, fills, starts or ends
# (live.forget_lobby). Between those, only "N minutes since the last move" and the order of the
# games to watch may lag by up to this many seconds.
LOBBY_SECONDS = 5


def _lobby_lists(language: str) -> str:
    lists = cache.get(live.lobby_key(language))
    if lists is not None:
        return lists
    # An open table's row says how many have joined, not who: a count, not its seats.
    open_games = (
        Game.objects.filter(status=Status.OPEN, public=True)
        .select_related("creator")
        .defer("state")
        .annotate(players=Count("seats"))
        .order_by("-created")[:50]
    )
    # Public games in play, to watch: the most recently moved first (the lobby's index).
    watch_games = (
        Game.objects.filter(status=Status.ACTIVE, public=True)
        .prefetch_related(table_prefetch())
        .defer("state")
        .order_by("-updated")[:WATCH_SHOWN]
    )
    lists = render_to_string(
        "games/lobby.html#lists", {"open_games": open_games, "watch_games": watch_games}
    )
    cache.set(live.lobby_key(language), lists, LOBBY_SECONDS)
    return lists


@functools.cache
def _blank_form_html(language: str) -> str:
    """The new game form's fields, as everybody first sees them: the same for all readers of a
    language (nothing else in it depends on the visitor or on the games), so drawn once per
    process and language (the active one: `language` is the cache's key); a refused form is
    drawn with its values and errors each time."""
    return render_to_string("games/lobby.html#form-fields", {"form": NewGameForm()})


WATCH_SHOWN = 20


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; `?with=bob,carol` (a finished game's or a player page's "play again with")
    ticks those players in the new table form's invite box."""
    ticked = _names(request.GET.get("with", "")[:2000].split(","))
    if ticked is None:
        return bad_request(
            request, _("Invite at most %(count)s players at once.") % {"count": INVITES_MAX}
        )
    return _render_lobby(request, NewGameForm(), ticked=ticked)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    invites = _names(request.POST.getlist("invite"))
    if invites is None:
        return bad_request(
            request, _("Invite at most %(count)s players at once.") % {"count": INVITES_MAX}
        )
    if form.is_valid():
        try:
            game = tables.create_game(request.user, form.spec())
        except errors.GameError as exc:
            form.add_error(None, exc.message)
        else:
            _send_invitations(request, game, invites)
            return redirect(game)
    return _render_lobby(request, form, status=400, ticked=invites)


def _send_invitations(request: HttpRequest, game: Game, names: list[str]) -> None:
    """The invite box's players, each invited through the table's own invite path
    (tables.invite: its rules, its e-mails, its refusals), one after the other; a refusal
    is said on the new table's page and the others still go."""
    sent = []
    for name in names:
        try:
            invitation = tables.invite(request.user, game.pk, name)
        except errors.GameError as exc:
            messages.error(
                request, _("%(name)s: %(refusal)s") % {"name": name, "refusal": exc.message}
            )
        else:
            sent.append(invitation.user.name if invitation.user else name)
    if sent:
        messages.success(request, _("Invitation sent to %(names)s.") % {"names": ", ".join(sent)})
