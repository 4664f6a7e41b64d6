"""The outbox's rows: every e-mail and push owed, each sent once (docs/delivery.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.game import Game, new_token


class Outgoing(models.Model):
    """An e-mail that must go out: the row is the outbox entry (docs/delivery.md).

    Written in the transaction that decides the e-mail; a worker claims it (PENDING → SENDING)
    in a short transaction of its own, sends, then marks it SENT. A failure puts it back to
    PENDING with `next_attempt` pushed back (exponential backoff) until OUTBOX_GIVE_UP_AFTER,
    then FAILED. The beat's sweep re-queues what is overdue and returns claims whose worker died
    (SENDING for longer than OUTBOX_CLAIM_TIMEOUT) to PENDING."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent: no longer wanted"
        FAILED = "failed", "Failed: gave up"

    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    # When the sweep should (re)queue it if it is still pending: a grace period after it was
    # written (its own on-commit task normally sends it first), then the retry backoff.
    next_attempt = models.DateTimeField(null=True, blank=True)
    claimed = models.DateTimeField(null=True, blank=True)
    sent = models.DateTimeField(null=True, blank=True)
    # Retrying stops at this time (FAILED); empty: OUTBOX_GIVE_UP_AFTER after `created`.
    give_up_at = models.DateTimeField(null=True, blank=True)
    # An attempt was cut off in the middle of its SMTP conversation (a worker killed, a time
    # limit, a connection lost): the message may have arrived. Such a row is sent again, with
    # its Message-ID, whatever changed since (at least once; only its recipient's own choices
    # stop it, and then it counts SENT all the same), and counted as a possible double
    # (outbox.MAYBE_DOUBLED; docs/delivery.md, "At least once").
    maybe_sent = models.BooleanField(default=False)
    # When the claim's SMTP conversation began (empty until then): a claim whose worker died
    # before it is known not to have sent anything, so it is not `maybe_sent`.
    transmitting = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def message_id_local(self) -> str:
        """The left part of the stable Message-ID: a re-sent row is recognisable as a double."""
        return f"{self._meta.model_name}-{self.pk}"


class Invitation(Outgoing):
    """An invitation to a table, and the outbox row of its e-mail. The invitation stands in the
    site whatever happens to the e-mail: that may be SKIPPED from the start (the invitee turned
    invitation e-mails off, or had one from the same inviter in the last day)."""

    class Via(models.TextChoices):
        EMAIL = "email", "An e-mail address typed in"
        USERNAME = "username", "A username typed in"
        REMATCH = "rematch", "A rematch offer"

    via = models.CharField(max_length=10, choices=Via.choices, default=Via.USERNAME)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=32, default=new_token, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    accepted = models.DateTimeField(null=True, blank=True)
    # Turned down: by the invitee's Decline on the table's page, or by the e-mail's decline link
    # (services.decline_invitation). The host's table shows it; the invitee may still join.
    declined = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "accepted"], name="invitation_user_idx"),
            # The per-inviter limits and the one e-mail a day: an inviter's last day of rows.
            models.Index(fields=["inviter", "created"], name="invitation_inviter_idx"),
            # The sweep's: pending and sending rows are few among the sent.
            models.Index(
                fields=["state", "next_attempt"],
                name="invitation_outbox_idx",
                condition=models.Q(state__in=["pending", "sending"]),
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation to {self.game} for {self.user or self.email}"


class Notification(Outgoing):
    """One e-mail to one player: the unique key makes sending idempotent (at most one "your
    turn" per player, game and turn), and the row records delivery for the dashboard."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn (Geared)"
        TURN_RESOLVED = "turn_resolved", "Turn resolved (Out of Gears)"
        GAME_OVER = "game_over", "Game over"
        REMINDER = "reminder", "Deadline reminder"
        REPLACED = "replaced", "You were replaced by a bot"
        PLAYER_REPLACED = "player_replaced", "A player was replaced"
        ABORTED = "aborted", "Game aborted"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    turn = models.PositiveIntegerField(default=0)
    # For "a player was replaced": which seat; 0 otherwise (part of the unique key).
    about = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user", "game", "turn", "about"], name="notification_once"
            )
        ]
        # (state, created) serves the sweep too: pending and sending rows are few.
        indexes = [models.Index(fields=["state", "created"], name="notification_state_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.user} ({self.game}, turn {self.turn})"


class Push(Outgoing):
    """One Web Push of a notification (or of an invitation) to one of the player's devices: an
    outbox row like an e-mail's, written in the same transaction as its Notification, claimed,
    retried, swept and given up on as e-mails are (docs/delivery.md). The e-mail of the same
    notification waits for it: skipped if a push reached the player, sent if none did; an
    invitation's e-mail follows its own rules (docs/notifications.md)."""

    notification = models.ForeignKey(
        Notification, null=True, blank=True, on_delete=models.CASCADE, related_name="pushes"
    )
    # Or an invitation to a table (by username, or a rematch offer): pushed beside its e-mail.
    invitation = models.ForeignKey(
        Invitation, null=True, blank=True, on_delete=models.CASCADE, related_name="pushes"
    )
    # Empty once the device is gone (removed from the profile, or 404/410 from its push service).
    subscription = models.ForeignKey(
        "accounts.PushSubscription",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="pushes",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["notification", "subscription"], name="push_once"),
            models.UniqueConstraint(
                fields=["invitation", "subscription"], name="push_invitation_once"
            ),
            models.CheckConstraint(
                condition=models.Q(notification__isnull=True) ^ models.Q(invitation__isnull=True),
                name="push_of_one_thing",
            ),
        ]
        indexes = [
            models.Index(
                fields=["state", "next_attempt"],
                name="push_outbox_idx",
                condition=models.Q(state__in=["pending", "sending"]),
            ),
            models.Index(fields=["state", "created"], name="push_state_idx"),
        ]

    def __str__(self) -> str:
        return f"Push of {self.notification or self.invitation}"


class Digest(Outgoing):
    """One daily e-mail to a player who chose a digest over an e-mail per turn: the games that
    wait for them. The unique key makes it once per player and day; the row is its outbox."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digests"
    )
    day = models.DateField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="digest_once_a_day")]
        indexes = [
            models.Index(
                fields=["state", "next_attempt"],
                name="digest_outbox_idx",
                condition=models.Q(state__in=["pending", "sending"]),
            )
        ]

    def __str__(self) -> str:
        return f"Digest to {self.user} for {self.day}"


class AccountMail(Outgoing):
    """An account e-mail of allauth (the address's confirmation, a password reset, ...),
    rendered in the request that asked for it and sent by the outbox like every other e-mail,
    so that a sign-up never waits on SMTP or fails with it (accounts/adapter.py).

    The rendered message carries the confirmation or reset link, like the e-mail itself; the
    bodies are erased once the row is done (sent, skipped or failed for good), and the admin
    never shows them."""

    to = models.EmailField()
    template = models.CharField(max_length=100)  # allauth's template prefix: which e-mail
    subject = models.CharField(max_length=300)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["state", "next_attempt"],
                name="accountmail_outbox_idx",
                condition=models.Q(state__in=["pending", "sending"]),
            )
        ]

    def __str__(self) -> str:
        return f"{self.template.rsplit('/', 1)[-1]} to {self.to}"
