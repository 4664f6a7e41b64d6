"""A league the rules refuse, and its sentence as a message id for the edge to translate."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """The identity: marks `message` as a message id for the catalogs (xgettext knows the name).
    The core writes no language: the edge translates a refusal's message id and fills in its
    parameters (docs/i18n.md), as for the engines' IllegalMove."""
    return message


class LeagueRefused(ValueError):
    """A league (or a result) the rules refuse. `msgid` is its sentence as a message id with
    `%(name)s` placeholders (marked with gettext_noop), `params` their values; `message` (and
    str()) is the English sentence, filled in."""

    def __init__(self, msgid: str, /, **params: object) -> None:
        message = msgid % params if params else msgid
        super().__init__(message)
        self.message = message
        self.msgid = msgid
        self.params = params
