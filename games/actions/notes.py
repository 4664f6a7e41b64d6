"""A player's private notes on a game: the writing (the limit and the reading are
games/reads/notes.py).

A note is not a change to the game: nobody else ever sees it, so it is written outside the
locked write path (games/actions/) and the game's version does not move; no page, poll,
stream or e-mail learns of it (docs/notes.md)."""

from __future__ import annotations

from django.utils.translation import gettext

from games.errors import GameError
from games.models import Game, GameNote
from games.reads.notes import NOTE_MAX


def clean_note(raw: str) -> str:
    """The note as it will be stored, or a GameError (400) with a sentence: line breaks as the
    textarea counts them (one character each), at most NOTE_MAX characters, no NUL."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        raise GameError(gettext("A note cannot contain a NUL character."))
    if len(text) > NOTE_MAX:
        raise GameError(
            gettext(
                "A note holds at most %(most)s characters; this one has %(count)s. "
                "Shorten it and save again."
            )
            % {"most": f"{NOTE_MAX:,}", "count": f"{len(text):,}"}
        )
    return text


def save_note(game: Game, user, raw: str) -> str:
    """Store this player's note on the game (an empty one removes it); return the stored text.
    The caller has checked that the user is seated at the game."""
    text = clean_note(raw)
    if not text.strip():
        GameNote.objects.filter(game=game, user=user).delete()
        return ""
    GameNote.objects.update_or_create(game=game, user=user, defaults={"text": text})
    return text
