"""Moderation in Django's admin, by subject: games, the table's chat and reports, the outbox's
e-mails, the ratings, the players (accounts has no admin of its own).

Every action that changes a game or a player goes through games.actions.moderation, which records
who did what, when and why (ModerationAction), and through the same locked write path as play.
Django's autodiscovery imports this package: importing the modules registers their pages.
"""

from games.admin import game, outbox, ratings, table, users  # noqa: F401 (registers the admin pages)
