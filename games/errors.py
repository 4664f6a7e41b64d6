"""The refusals of the write path: a sentence for a person and the HTTP status that fits it.
Services, the per-game pages and the views share them (views turn one into its answer with
games.views.common.answer_error)."""

from __future__ import annotations


class GameError(Exception):
    """A refusal with a sentence for a person and the HTTP status that fits it."""

    status = 400
    # The game as the write path read it (locked) when it refused, for the answer to show:
    # nothing of it had changed.
    game = None

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotFound(GameError):
    status = 404


class Forbidden(GameError):
    status = 403


class Conflict(GameError):
    status = 409
