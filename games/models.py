"""What is stored of a game: the game row (engine state, version), its seats, its move log."""

from __future__ import annotations

import functools
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from games import live


class Kind(models.TextChoices):
    GEARED = "geared", "Geared: Build Your Bike"
    OUTOFGEARS = "outofgears", "Out of Gears"


class Status(models.TextChoices):
    OPEN = "open", "Waiting for players"
    ACTIVE = "active", "In play"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class BotKind(models.TextChoices):
    RANDOM = "random", "Random bot"
    GREEDY = "greedy", "Greedy bot"


TURN_TIMES = [
    (0, "No time limit"),
    (12 * 3600, "12 hours"),
    (86400, "1 day"),
    (3 * 86400, "3 days"),
]


def new_token() -> str:
    return secrets.token_urlsafe(16)


# What the live-update check reads of a game (games/live.py STATE_FIELDS: it caches them).
LIVE_FIELDS = frozenset({"version", "status", "chat_seq", "public", "watchable_by_link"})


# The order of a game's seats wherever they are shown.
SEAT_ORDER = ("position", "pk")


def _seat_order_key(seat: Seat) -> list[tuple[bool, object]]:
    values = (getattr(seat, name) for name in SEAT_ORDER)
    return [(value is None, value) for value in values]  # ascending, NULLs last: as PostgreSQL


def in_seat_order(seats) -> list[Seat]:
    """One game's seats in SEAT_ORDER, sorted here as PostgreSQL's ORDER BY sorts them. A
    game's few seats are read without an ORDER BY: Django 6.1 compiles one at a cost that
    grows with the columns selected (~0.4 ms of CPU for a seat with its two players, a third
    of the query; docs/benchmarks.md)."""
    return sorted(seats, key=_seat_order_key)


def _players():
    """Seats with their players (`Seat.name` reads both), in no particular order."""
    return Seat.objects.select_related("user", "replaced_user").order_by()


def table_seats():
    """A game's seats as its pages show them: in order, with their players."""
    return _players().order_by(*SEAT_ORDER)


def table_prefetch() -> models.Prefetch:
    """The seats of each game of a list, as `game.table` (ordered by the database: one query
    for the whole list)."""
    return models.Prefetch("seats", queryset=table_seats(), to_attr="table")


def seats_of(game_id: int) -> list[Seat]:
    """One game's seats with their players, in order (one query)."""
    return in_seat_order(_players().filter(game_id=game_id))


class GameQuerySet(models.QuerySet):
    def with_table(self, pk: int) -> Game | None:
        """The game and its seats with their players (`game.table`), in one query (the seats'
        rows with their game's columns; the game alone when it has none), or None."""
        rows = _players().select_related("game").filter(game_id=pk)
        seats = in_seat_order(rows)
        if not seats:
            game = next(iter(self.filter(pk=pk)), None)  # no ORDER BY: one row at most
            if game is not None:
                game.table = []
            return game
        game = seats[0].game
        for seat in seats:
            seat.game = game  # one instance for all (each row built its own)
        game.table = seats
        return game

    def locked(self, pk: int, *, with_seats: bool = False) -> Game | None:
        """The one way to lock a game: its row, locked until the transaction ends (call inside
        transaction.atomic()), or None if there is none. Only the game's row is locked
        (`of=self`). `with_seats`: its seats and players too (`game.table`), read in a second
        query once the lock is held, so that they are the ones the transaction that held the
        lock before left, never older."""
        # No ORDER BY (first() would add one): a primary key matches one row at most.
        game = next(iter(self.select_for_update(of=("self",)).filter(pk=pk)), None)
        if game is not None and with_seats:
            game.table = seats_of(pk)
            for seat in game.table:
                seat.game = game
        return game


class Game(models.Model):
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField()
    public = models.BooleanField(
        default=False,
        help_text="Listed in the lobby for anyone to join, and to watch once it starts.",
    )
    # A private table: may those who have its link (not seated) watch the game once it starts?
    watchable_by_link = models.BooleanField(
        default=True, help_text="Anyone with the table's link may watch the game in play."
    )
    join_token = models.CharField(max_length=32, default=new_token, unique=True)
    # The engine's state: never sent to a browser as is (it holds hands, the draw order and the
    # generator's state). Templates only ever see engine.view(state, seat).
    state = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    # Out of Gears: a program is stale only if it was made on an earlier turn.
    turn = models.PositiveIntegerField(default=0)
    turn_version = models.PositiveIntegerField(default=0)
    turn_seconds = models.PositiveIntegerField(default=0, choices=TURN_TIMES)
    deadline = models.DateTimeField(null=True, blank=True)
    reminded_turn = models.PositiveIntegerField(default=0)
    # The outbox of the game's own work: set when the server owes the game a step (an Out of
    # Gears turn whose programs are all in, or a bot whose turn it is), to the time of the change
    # that made it due; cleared when nothing is owed. The beat's sweep re-queues the work of
    # every game due for longer than OUTBOX_GAME_GRACE (games/outbox.py).
    due_since = models.DateTimeField(null=True, blank=True)
    chat_seq = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Replayed from a game record (games/reads/records.py): a finished game with no players of this
    # site, visible to its importer and by its link, and counted in nobody's statistics.
    imported = models.BooleanField(default=False)
    # The finished game this one is a rematch of: set only by actions.tables.rematch, never from
    # what a player sends (a record's options once carried it, and put a stranger's offer on any
    # game's end screen).
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    # Set by a moderator for a game that cannot wait: its deadlines run while a player is on
    # vacation (games/vacation.py).
    vacation_exempt = models.BooleanField(
        default=False, help_text="Deadlines run even while a player is away on vacation."
    )
    # The time the turn had left when its player went away, kept when the deadline passed while
    # they were away: the paused deadline is their return plus this (games/vacation.py).
    paused_left = models.DurationField(null=True, blank=True, editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["status", "public", "-created"], name="game_lobby_idx"),
            models.Index(
                fields=["deadline"],
                name="game_deadline_idx",
                condition=models.Q(status="active", deadline__isnull=False),
            ),
            models.Index(
                fields=["due_since"],
                name="game_due_idx",
                condition=models.Q(status="active", due_since__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    def save(self, *args, **kwargs) -> None:
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if fields is None or LIVE_FIELDS.intersection(fields):
            live.forget_game(self.pk)  # the live check's cached state goes at commit
        status = self.__dict__.get("status")  # never a query for a deferred field
        if self.public and status != getattr(self, "_saved_status", None):
            live.forget_lobby()  # a public table opened, started or ended
        self._saved_status = status

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def shown_changed(self) -> None:
        """Something the game's page shows changed without a move (a deadline extended or
        paused, a time limit, a rematch offered or accepted): the version moves on, so every
        open page fetches itself again (its stream's event, or its poll: docs/live.md). Call it
        with the game's row locked, in the change's transaction. An Out of Gears program in
        progress stays good (only a new turn makes it stale: `turn_version`); a Geared page is
        stale, as on any change, and a move sent from it shows the game as it is now."""
        self.version += 1
        self.save(update_fields=["version", "updated"])
        live.forget_turns(self.seats.values_list("user_id", flat=True))  # My games' rows too

    @classmethod
    def from_db(cls, db, field_names, values, **kwargs):
        game = super().from_db(db, field_names, values, **kwargs)
        game._saved_status = game.__dict__.get("status")
        return game

    @functools.cached_property
    def table(self) -> list[Seat]:
        """The game's seats in order, with their players: as read with the game
        (`Game.objects.with_table`, `locked(with_seats=True)`, `table_prefetch`), else read on
        first use and kept on this instance (read a game anew to see seats changed since)."""
        return seats_of(self.pk)

    @property
    def is_open(self) -> bool:
        return self.status == Status.OPEN

    @property
    def is_active(self) -> bool:
        return self.status == Status.ACTIVE

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    # Bots seated at the table's creation are numbered 1, 2, 3… within the game, for good: the
    # number does not change when the game starts and shuffles the seats. 0 for a player, and
    # for a bot that took a player's seat over (it is named after that player instead).
    bot_number = models.PositiveSmallIntegerField(default=0)
    # The engine's seat id is str(position), 1-based, in play order; set when the game starts.
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    robots = models.JSONField(default=list, blank=True)
    to_act = models.BooleanField(default=False)
    missed_deadlines = models.PositiveSmallIntegerField(default=0)
    seen_version = models.PositiveIntegerField(default=0)
    # The newest event (Geared) or turn story (Out of Gears) this player has been shown, so the
    # page can mark what is new since their last visit.
    seen_mark = models.PositiveIntegerField(default=0)
    # When this player's open game page last checked for news (the live-update poll), written at
    # most every WATCH_WRITE_EVERY seconds: a "your turn" e-mail is not sent to someone watching.
    watched = models.DateTimeField(null=True, blank=True)
    replaced_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player this bot replaced.",
    )
    joined = models.DateTimeField(auto_now_add=True)
    # The name a game record gave this seat (an imported game's seats have no user).
    recorded_name = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["position", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                name="seat_one_per_user",
                condition=models.Q(user__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["game", "position"],
                name="seat_unique_position",
                condition=models.Q(position__isnull=False),
            ),
        ]
        indexes = [models.Index(fields=["user", "to_act"], name="seat_user_turn_idx")]

    def __str__(self) -> str:
        return self.name

    @property
    def seat_id(self) -> str:
        return str(self.position)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def name(self) -> str:
        """The seat's one name, wherever it is shown: the game page, its log, e-mails, my games,
        the standings. A bot is "Greedy bot 2", or "Greedy bot (for fay)" once it has taken
        fay's seat over. (Query the seats with select_related("user", "replaced_user").)"""
        if self.recorded_name:
            return self.recorded_name
        if self.bot:
            kind = self.get_bot_display()
            if self.bot_number:
                return f"{kind} {self.bot_number}"
            if self.replaced_user_id is not None:
                return f"{kind} (for {self.replaced_user.name})"
            return kind
        return self.user.name if self.user else "Empty seat"

    @property
    def player_url(self) -> str:
        """The page of the account behind this seat's name, or "" where the name is not an
        account's: a bot (also one that took a player's seat), an imported record's name, a
        deactivated account (issue 27.1)."""
        if self.recorded_name or self.bot or self.user is None or not self.user.is_active:
            return ""
        return self.user.get_absolute_url()


def seat_names(seats) -> dict[str, str]:
    """The engine's seat id -> the seat's name, for the seats of a started game."""
    return {s.seat_id: s.name for s in seats if s.position}


class Move(models.Model):
    """The append-only log: with the seed, it replays the game."""

    class Kind(models.TextChoices):
        ACTION = "action", "Action"
        RESOLVE = "resolve", "Turn resolved"
        TIMEOUT = "timeout", "Played at the deadline"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ACTION)
    action = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game} move {self.seq}"


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
    # (actions.tables.decline_invitation). The host's table shows it; the invitee may still join.
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


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)

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


class Rating(models.Model):
    """A player's (or a bot kind's) skill at one game, as OpenSkill's Plackett-Luce model keeps
    it (games/reads/ratings.py): `mu` the estimate, `sigma` its uncertainty. Bots are rated too,
    so a new player can see how they compare with the greedy bot."""

    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    bot = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user"], name="rating_one_per_user", condition=models.Q(bot="")
            ),
            models.UniqueConstraint(
                fields=["kind", "bot"], name="rating_one_per_bot", condition=~models.Q(bot="")
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot="")
                | models.Q(user__isnull=True) & ~models.Q(bot=""),
                name="rating_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.name if self.user_id else self.get_bot_display()
        return f"{who} · {self.get_kind_display()}"

    @property
    def display(self) -> int:
        """The rating shown to players, on the familiar scale around 1500 (docs/ratings.md)."""
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        """Shown with a "?" while the estimate is still unsure (as lichess does)."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def spread(self) -> int:
        """The uncertainty on the display scale: the rating is display ± spread."""
        return round(DISPLAY_SCALE * self.sigma)


class RatingChange(models.Model):
    """One game's effect on one rating: the history behind the profile's chart."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.rating} after game #{self.game_id}"

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before)

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after)

    @property
    def provisional_after(self) -> bool:
        return self.sigma_after > PROVISIONAL_SIGMA


# The display scale (docs/ratings.md, "The number shown"): OpenSkill's skill estimate mu (25 at
# the start) moved to where Elo and lichess players expect it: 1500 at the start, and one
# performance spread (beta = 25/6) worth 200 points, the gap at which Elo expects the stronger
# player to win three games in four. "?" while sigma is above 6.5 (about ten two-player games).
DISPLAY_START, DISPLAY_SCALE, PROVISIONAL_SIGMA = 1500, 48, 6.5


def display_rating(mu: float) -> int:
    return round(DISPLAY_START + DISPLAY_SCALE * (mu - 25))
