"""Sentences as message ids, for the pure cores (the engines, the leagues' core) that write no
language: a refusal carries its sentence's message id and parameters, and the edge translates
the one and fills in the others (docs/i18n.md). Pure: nothing of Django, no I/O."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """The identity: marks `message` as a message id for the catalogs (xgettext knows the name).
    The cores write no language: the edge translates a refusal's message id and fills in its
    parameters."""
    return message


class Refused(ValueError):
    """Something the rules refuse. `msgid` is its sentence as a message id with `%(name)s`
    placeholders (marked with gettext_noop), `params` their values; `message` (and str()) is the
    English sentence, filled in."""

    def __init__(self, msgid: str, /, **params: object) -> None:
        message = msgid % params if params else msgid
        super().__init__(message)
        self.message = message
        self.msgid = msgid
        self.params = params
