"""What is said and done at a table beside the moves: its chat, a player's notes, reports and
the moderators' actions."""

from __future__ import annotations

from django.conf import settings
from django.db import models, transaction
from django.db.models import Case, Exists, F, OuterRef, Value, When

from games.models.game import Game


class ChatQuerySet(models.QuerySet):
    def post(self, game: Game, author, text: str) -> ChatMessage:
        """The one way a message is written: the message and the game's `chat_seq` moved in
        one transaction. The counter is the truth the reads rely on: a game whose `chat_seq`
        is 0 never had a message, and its page reads no chat (`chat_messages`). Whoever may
        write, and what, is moderation.post_chat's to decide."""
        with transaction.atomic():
            message = self.create(game=game, author=author, text=text)
            Game.objects.filter(pk=game.pk).update(chat_seq=F("chat_seq") + 1)
        return message


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)

    objects = ChatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "created", "pk"]
        indexes = [models.Index(fields=["game", "-created"], name="chat_game_idx")]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class GameNote(models.Model):
    """A player's private note on a game (plans, what was discarded): shown to its writer only,
    never to the other players, spectators, the fragments, the e-mails or the game's record.
    Not a change to the game: written outside the locked write path, and the game's version
    does not move (games/actions/notes.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=2000)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="game_note_once_per_player")
        ]

    def __str__(self) -> str:
        return f"note of user {self.user_id} on game #{self.game_id}"


class Report(models.Model):
    class State(models.TextChoices):
        OPEN = "open", "Open"
        HIDDEN = "hidden", "Message hidden"
        DISMISSED = "dismissed", "Dismissed"
        SUSPENDED = "suspended", "Author suspended"

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reason = models.CharField(max_length=500)
    state = models.CharField(max_length=12, choices=State.choices, default=State.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    handled = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once_per_reporter")
        ]
        indexes = [models.Index(fields=["state", "created"], name="report_queue_idx")]

    def __str__(self) -> str:
        return f"Report on “{self.message.text[:30]}” by {self.reporter}"


class ModerationAction(models.Model):
    """The audit record: who did what, to whom or which game, when and why."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_actions"
    )
    action = models.CharField(max_length=40)
    reason = models.TextField(blank=True)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.moderator} {self.action} ({self.created:%Y-%m-%d %H:%M})"


CHAT_SHOWN = 50


def chat_messages(game: Game, reader=None) -> list[ChatMessage]:
    """The game's last messages, oldest first, each with its author; with `reader` (a signed-in
    user), whether they have reported each one already (`reported`: the log offers no second
    report, which moderation.report_message refuses).

    No query for a game whose row says it never had a message (`chat_seq` 0): every message is
    written by ChatMessage.objects.post, which moves the counter, and so does a message hidden;
    a message is never deleted but with its game or author, which only leaves the counter above
    the messages there are (a query that finds fewer). The page carries the `chat_seq` it was
    drawn from, so a message posted after the game's row was read reloads the chat as usual."""
    if not game.chat_seq:
        return []
    # Only what the chat shows: Django builds (and decodes) each selected column, and the
    # author's row is wide (bench-cpu: the full page's chat query was ~0.8 ms of CPU).
    # A hidden message's text is not even read (issue 27.8): `shown_text` is "" for it, in the
    # query, so no page, fragment or later template can send it to a player.
    shown = (
        "created",
        "hidden",
        "author_id",
        "author__username",
        "author__display_name",
        "author__is_active",  # the name links to the player's page while the account is active
        "author__is_bot",  # "(a bot by fay)" (issue 28.4)
        "author__bot_owner",
    )
    latest = (
        game.chat.select_related("author")
        .only(*shown)
        .annotate(shown_text=Case(When(hidden=True, then=Value("")), default=F("text")))
        .order_by("-pk")
    )
    if reader is not None and reader.is_authenticated:
        mine = Report.objects.filter(message=OuterRef("pk"), reporter=reader)
        latest = latest.annotate(reported=Exists(mine))
    latest = latest[:CHAT_SHOWN]
    return list(reversed(latest))
