"""What is stored of a game: the game row (engine state, version), its seats, its move log."""

from __future__ import annotations

import functools
import secrets

from django.conf import settings
from django.db import connection, models
from django.dispatch import Signal
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy


class Kind(models.TextChoices):
    GEARED = "geared", _("Geared: Build Your Bike")
    OUTOFGEARS = "outofgears", _("Out of Gears")


class Status(models.TextChoices):
    OPEN = "open", pgettext_lazy("game status", "Waiting for players")
    ACTIVE = "active", pgettext_lazy("game status", "In play")
    FINISHED = "finished", pgettext_lazy("game status", "Finished")
    ABORTED = "aborted", pgettext_lazy("game status", "Aborted")


class BotKind(models.TextChoices):
    RANDOM = "random", _("Random bot")
    GREEDY = "greedy", _("Greedy bot")


_hours = lazy(lambda n: ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n}, str)
_days = lazy(lambda n: ngettext("%(n)s day", "%(n)s days", n) % {"n": n}, str)
TURN_TIMES = [
    (0, _("No time limit")),
    (12 * 3600, _hours(12)),
    (86400, _days(1)),
    (3 * 86400, _days(3)),
]


def new_token() -> str:
    return secrets.token_urlsafe(16)


# Sent by Game.shown_changed (sender: Game, `game`): the live cache hears it (games/apps.py).
shown = Signal()


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
    def with_table(self, pk: int, **read_with_seats) -> Game | None:
        """The game and its seats with their players (`game.table`), in one query (the seats'
        rows with their game's columns; the game alone when it has none), or None.
        `read_with_seats`: expressions over the seat's game (`OuterRef("game_id")`) read in the
        same query and set on the game by name, not on its seats (a game without seats has
        none of them: who reads them falls back to a query of their own)."""
        rows = _players().select_related("game").filter(game_id=pk)
        if read_with_seats:
            rows = rows.annotate(**read_with_seats)
        seats = in_seat_order(rows)
        if not seats:
            game = next(iter(self.filter(pk=pk)), None)  # no ORDER BY: one row at most
            if game is not None:
                game.table = []
            return game
        game = seats[0].game
        for name in read_with_seats:
            setattr(game, name, getattr(seats[0], name))
        for seat in seats:
            seat.game = game  # one instance for all (each row built its own)
            for name in read_with_seats:
                delattr(seat, name)
        game.table = seats
        return game

    def locked(self, pk: int, *, with_seats: bool = False) -> Game | None:
        """The one way to lock a game: its row, locked until the transaction ends (call inside
        transaction.atomic()), or None if there is none. Only the game's row is locked
        (`of`: the game's table). `with_seats`: its seats and players too (`game.table`), as
        the transaction that held the lock before left them, never older.

        With its seats, one statement (issue 36.1): the seats with their game and players,
        the game's row locked (`FOR UPDATE OF` the game). Such a statement reads the seats as
        they were when it began; if it had to wait for the lock, PostgreSQL hands it the game's
        row as the other transaction committed it but the seats as they were before that
        commit. So the game's version is also read as the statement began (`read_version`, an
        unlocked subquery): when the two differ, another change committed in between and the
        seats are read again, now that the lock is held (docs/benchmarks.md, "Issue 36.1").
        This holds because every change of a game's seats made under its lock moves its
        version in the same transaction (a move, a timeout, a seat taken, left or handed to a
        bot, an abort); what a player has seen and watched is theirs, written without it.
        A game without seats is locked alone."""
        if with_seats:
            game = self._locked_with_table(pk)
            if game is not None:
                return game
        # No ORDER BY (first() would add one): a primary key matches one row at most.
        game = next(iter(self.select_for_update(of=("self",)).filter(pk=pk)), None)
        if game is not None:
            game.hold_lock()
            if with_seats:
                game.table = seats_of(pk)
                for seat in game.table:
                    seat.game = game
        return game

    def _locked_with_table(self, pk: int) -> Game | None:
        """The game, locked, with its seats (`locked`), in one statement; None when no seat
        was read (no such game, or a game without seats: `locked` then locks it alone)."""
        as_begun = self.model.objects.filter(pk=models.OuterRef("game_id")).values("version")
        rows = (
            _players()
            .select_related("game")
            .select_for_update(of=("game",))
            .filter(game_id=pk)
            .annotate(read_version=models.Subquery(as_begun))
        )
        seats = in_seat_order(rows)
        if not seats:
            return None
        game = seats[0].game
        game.hold_lock()
        if seats[0].read_version != game.version:  # a change committed while it waited
            seats = seats_of(pk)
        for seat in seats:
            seat.game = game  # one instance for all (each row built its own)
        game.table = seats
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
    # every game due for longer than OUTBOX_GAME_GRACE (games/notifications/outbox.py).
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
    # The finished game this one is a rematch of: set only by services.rematch, never from what
    # a player sends (a record's options once carried it, and put a stranger's offer on any
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
        shown.send(sender=Game, game=self)  # My games' rows too (games/live/cache.py)

    def hold_lock(self) -> None:
        """Read by `Game.objects.locked`: its row is this transaction's until it ends."""
        self._locked_in = connection.atomic_blocks[0] if connection.in_atomic_block else None

    def changed_apart(self) -> None:
        """The row was written by an UPDATE that did not go through this instance (an F()
        expression): what the instance holds is no longer known to be the row (`lock_held`)."""
        self._locked_in = None

    @property
    def lock_held(self) -> bool:
        """Is this instance the game's row as read under its lock, in the transaction that
        still holds it? Then what it holds is the row as this transaction left it (its own
        writes made through it), and no other transaction can have changed it since."""
        outer = getattr(self, "_locked_in", None)
        return (
            outer is not None
            and bool(connection.atomic_blocks)
            and (connection.atomic_blocks[0] is outer)
        )

    @classmethod
    def from_db(cls, db, field_names, values, **kwargs):
        game = super().from_db(db, field_names, values, **kwargs)
        game._saved_status = game.__dict__.get("status")  # games/live/cache.py, `game_saved`
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
        ACTION = "action", _("Action")
        RESOLVE = "resolve", _("Turn resolved")
        TIMEOUT = "timeout", _("Played at the deadline")

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
