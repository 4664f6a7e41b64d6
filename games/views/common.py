"""What the game views share: refusals as answers, who may see a game, the session's user."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games import errors
from games.models import Game
from games.reads import access, notes, ratings


def answer_error(request: HttpRequest, exc: errors.GameError, back) -> HttpResponse:
    """A refusal as the HTTP answer a page's form gets: a 404 page for what this visitor may
    not know exists, otherwise back to `back` with the sentence shown there."""
    if exc.status == 404:
        raise Http404(exc.message) from None
    messages.error(request, exc.message)
    return redirect(back)


def bad_request(request: HttpRequest, message: str) -> HttpResponse:
    """Input no form of ours sends (a crafted request): 400 and a sentence, nothing changed."""
    return render(request, "bad_request.html", {"message": message}, status=400)


def visible_game(
    request: HttpRequest, game_id: int, *, token: str | None = None, with_note: bool = False
) -> Game:
    """The game if this visitor may read it (access.may_read_game, with the join link
    `token`); for everybody else it does not exist: the same 404 as for an id never used.
    `with_note` (the full page): the session's user's own note read with the game, in the
    same query (notes.game_with_note); shown only if that user is the one seated
    (notes.note_text checks whose it is)."""
    reader = access.session_user_id(request) if with_note else 0
    if reader:
        game = notes.game_with_note(game_id, reader)
    else:
        game = Game.objects.with_table(game_id)
    if game is None:
        raise Http404(_("There is no such game."))
    _user_from_seats(request, game)
    if access.may_read_game(game, request.user, token):
        return game
    raise Http404(_("There is no such game."))


def ranking_and_places(result: dict) -> tuple[list[str], dict[str, int]]:
    """A finished game's seats in order, and each one's place (equal scores share a place)."""
    scores = result.get("scores", {})
    ranking = result.get("ranking") or sorted(scores, key=lambda s: -scores[s])
    return ranking, ratings.places_of(result)


def posted_robots(request: HttpRequest) -> list[int] | None:
    """The robots a joining player ticked; None if the form was not ours."""
    raw_robots = request.POST.getlist("robot")
    # ASCII digits only: "²" passes str.isdigit() and then int() refuses it.
    if not all(r.isascii() and r.isdigit() for r in raw_robots):
        return None
    return [int(r) for r in raw_robots]


def _user_from_seats(request: HttpRequest, game: Game) -> None:
    """request.user, when the session's user is a player of this game (or the one a bot
    replaced), taken from the row just read with the seats rather than by a query of its own
    (access.session_user_among: get_user's own checks on that row). Any other case (a
    visitor, a session no longer valid) leaves request.user to load as it always does."""
    user = access.session_user_among(
        request, (u for seat in game.table for u in (seat.user, seat.replaced_user))
    )
    if user is not None:
        request.user = user  # what AuthenticationMiddleware's lazy user would load
