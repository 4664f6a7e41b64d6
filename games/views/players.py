"""Players' pages: ratings, statistics and recent games, for people and for the bots; following
a player (issue 27)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.actions import follows
from games.errors import GameError
from games.models import BotKind
from games.reads import players, ratings
from games.views.common import answer_error, bad_request


def _player_or_404(username: str, follower=None) -> User:
    """The active player of that name (a deactivated account has no page: its names are not
    links either, Seat.player_url); with `follower`, a signed-in visitor, whether they follow
    this player (`followed`), read in the same query."""
    found = User.objects.filter(username__iexact=username, is_active=True)
    if follower is not None:
        found = found.annotate(followed=players.followed_by(follower))
    # No first(): its ORDER BY is compiled at a cost, and a username names one account.
    user = next(iter(found[:1]), None)
    if user is None:
        raise Http404(_("There is no such player."))
    return user


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public face: anyone may read it, as on lichess. It shows only what is public:
    the name (never the e-mail address), the ratings and counts of finished games, and the
    games the visitor could open anyway (public ones, and their own with this player)."""
    viewer = request.user if request.user.is_authenticated else None
    user = _player_or_404(username, follower=viewer)
    raw = request.GET.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 0
    if not 1 <= page <= players.LAST_PAGE:
        return bad_request(
            request, _("A page is a number from 1 to %(last)s.") % {"last": players.LAST_PAGE}
        )
    games, more = players.recent_games(user, request.user, page)
    me = request.user.is_authenticated and request.user.pk == user.pk
    flags = {
        "is_me": me,
        "player": user,
        "games": games,
        "page": page,
        "more": more,
        "following": viewer is not None and not me and user.followed,
        # The lobby's new table form, with this player ticked to invite (issue 27.2).
        "play_url": f"{reverse('lobby')}?{urlencode({'with': user.username})}#new-game",
    }
    return _render(request, user.name, ratings.player_stats(user=user), **flags)


@require_GET
def bot(request: HttpRequest, bot: str) -> HttpResponse:
    if bot not in BotKind.values:
        raise Http404(_("There is no such bot."))
    name = BotKind(bot).label
    return _render(request, name, ratings.player_stats(bot=bot), is_bot=True)


def _render(request, name: str, stats: list[dict], **flags) -> HttpResponse:
    context = {"name": name, "stats": stats, "nav_section": "profile" if flags.get("is_me") else ""}
    return render(request, "games/player.html", {**context, **flags})


def following_context(user: User) -> dict:
    """The profile's list of the players this user follows (issue 27.2; one query)."""
    return {"following": players.followed_players(user)}


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow (or, with unfollow=1, stop following) a player: always the logged-in player's own
    list (the session says who; nothing posted can name a follower)."""
    user = _player_or_404(username)
    if user.pk == request.user.pk:
        return bad_request(request, _("You cannot follow yourself."))
    back = user.get_absolute_url()
    if request.POST.get("unfollow"):
        follows.unfollow(request.user, user)
        messages.success(request, _("You no longer follow %(name)s.") % {"name": user.name})
        return redirect(back)
    try:
        follows.follow(request.user, user)
    except GameError as exc:
        return answer_error(request, exc, back)
    messages.success(request, _("You follow %(name)s. They are not told.") % {"name": user.name})
    return redirect(back)
