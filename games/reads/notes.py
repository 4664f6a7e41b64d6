"""A player's private notes on a game: the limit and the reading (nobody but the player reads
a note; its writing is games/actions/notes.py)."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery

from games.models import Game, GameNote

NOTE_MAX = 2000


def game_with_note(game_id: int, user_id: int) -> Game | None:
    """The game with its seats (Game.objects.with_table), and `user_id`'s own note on it read
    in the same query (issue 36.2): a subquery on the one (game, user) row the note can be,
    never another player's. `note_of` says whose note `note` is (note_text checks it)."""
    mine = GameNote.objects.filter(game_id=OuterRef("game_id"), user_id=user_id)
    game = Game.objects.with_table(game_id, note=Subquery(mine.values("text")[:1]))
    if game is not None and hasattr(game, "note"):
        game.note_of = user_id
    return game


def note_text(game: Game, user) -> str:
    """This player's note on the game ("" when they wrote none): the one read with the game
    for this player (game_with_note), or one query. One row at most (one note per player and
    game): no `first()`, whose ORDER BY Django compiles at a cost."""
    if user.pk is not None and getattr(game, "note_of", None) == user.pk:
        return game.note or ""
    found = GameNote.objects.filter(game=game, user=user).values_list("text", flat=True)[:1]
    return next(iter(found), "")
