"""A player's private notes on a game: the limit and the reading (nobody but the player reads
a note; its writing is games/actions/notes.py)."""

from __future__ import annotations

from games.models import Game, GameNote

NOTE_MAX = 2000


def note_text(game: Game, user) -> str:
    """This player's note on the game ("" when they wrote none): one query. One row at most
    (one note per player and game): no `first()`, whose ORDER BY Django compiles at a cost."""
    found = GameNote.objects.filter(game=game, user=user).values_list("text", flat=True)[:1]
    return next(iter(found), "")
