"""A table as it is: whose seat is whose (now, or before a bot took it), and the rematch offered
after a finished game."""

from __future__ import annotations

from accounts.models import User
from games.models import Game, Seat, Status


def seat_of(game: Game, user: User | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.table if s.user_id == user.pk), None)


def former_seat_of(game: Game, user: User | None) -> Seat | None:
    """The seat this user played until a bot took it (they resigned, or missed too many
    deadlines): it gives read access to the game (page, log, chat), never a move."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.table if s.replaced_user_id == user.pk), None)


def rematch_of(game: Game) -> Game | None:
    """The rematch offered after this finished game, if any (not one that was called off)."""
    return (
        Game.objects.filter(rematch_of=game, imported=False)
        .exclude(status=Status.ABORTED)
        .order_by("pk")
        .first()
    )
