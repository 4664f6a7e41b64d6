"""A league the rules refuse, and its sentence as a message id for the edge to translate."""

from __future__ import annotations

from games.message_ids import Refused, gettext_noop  # noqa: F401 (the core marks with it)


class LeagueRefused(Refused):
    """A league (or a result) the rules refuse. `msgid` is its sentence as a message id with
    `%(name)s` placeholders (marked with gettext_noop), `params` their values; `message` (and
    str()) is the English sentence, filled in."""
