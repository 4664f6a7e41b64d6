"""Geartable's user: Django's user plus what a player sets on their profile."""

from __future__ import annotations

import secrets
import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"Factory", "localtime"})
# Why a bot account may not act (issue 28.4): by hand on the pages, or by a token without `bot`.
BOT_BY_HAND = (
    "This is a bot account: it plays only through the API, with a token whose scope includes “bot”."
)


def new_mail_key() -> str:
    return secrets.token_urlsafe(12)


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text=_("How other players see you. Defaults to your username."),
    )
    # The names' skeletons (accounts/names.py: what a reader takes them for), kept by a signal,
    # so that a look-alike of another player's name is found by index.
    username_key = models.CharField(max_length=160, blank=True, db_index=True, editable=False)
    display_key = models.CharField(max_length=160, blank=True, db_index=True, editable=False)
    time_zone = models.CharField(
        max_length=64, default="UTC", choices=[(tz, tz.replace("_", " ")) for tz in TIME_ZONES]
    )
    # The language of the pages, e-mails and pushes (docs/i18n.md): guessed from the browser
    # at sign-up, chosen on the profile among settings.LANGUAGES (no `choices` here: a new
    # language is a catalog and a line of settings, not a migration).
    language = models.CharField(_("language"), max_length=8, default="en")
    # Which channel for which kind (docs/notifications.md; the profile's grid): e-mail
    # (notify_turn, email_game_over, notify_invitation, notify_reminder) and push (push_*).
    notify_turn = models.BooleanField(
        _("E-mail for your turn"),
        default=True,
        help_text=_("Also for a resolved Out of Gears turn."),
    )
    email_game_over = models.BooleanField(_("E-mail for game over"), default=True)
    push_turn = models.BooleanField(_("Push for your turn"), default=True)
    push_game_over = models.BooleanField(_("Push for game over"), default=True)
    push_invitation = models.BooleanField(
        _("Push for invitations and rematch offers"), default=True
    )
    push_reminder = models.BooleanField(_("Push for deadline reminders"), default=True)
    email_digest = models.BooleanField(
        _("One e-mail a day instead"),
        default=False,
        help_text=_(
            "Instead of an e-mail at each turn: one a day, listing every game that waits "
            "for you (as correspondence players like it)."
        ),
    )
    email_with_push = models.BooleanField(
        _("E-mail me even when my device was notified"),
        default=False,
        help_text=_(
            "Off: a turn e-mail comes only when no notification reached any of your devices."
        ),
    )
    notify_reminder = models.BooleanField(
        _("E-mail for deadline reminders"),
        default=True,
        help_text=_("Once, when most of the time for a turn is gone."),
    )
    notify_invitation = models.BooleanField(
        _("E-mail for invitations and rematch offers"),
        default=True,
        help_text=_("The invitation waits on your games page either way."),
    )
    only_known_inviters = models.BooleanField(
        _("Only players I have played with may invite me"),
        default=False,
        help_text=_(
            "Anyone else is told that you take invitations only from people you have "
            "played with, and an invitation to your address from them sends no e-mail."
        ),
    )
    turn_sound = models.BooleanField(
        _("Play a sound when a game starts waiting for me"),
        default=False,
        help_text=_(
            "A short chime in an open tab of the site, when it becomes your turn (never "
            "when a page opens)."
        ),
    )

    mail_key = models.CharField(
        max_length=24,
        unique=True,
        default=new_mail_key,
        editable=False,
        help_text=_("Names the user in e-mail links instead of their id."),
    )

    suspended = models.BooleanField(default=False)
    suspended_until = models.DateTimeField(
        null=True, blank=True, help_text=_("Empty: until a moderator lifts it.")
    )
    suspension_reason = models.CharField(max_length=500, blank=True)

    # On vacation (games/vacation_dates.py): the last day away, as the player chose it, and the
    # moment they are back (the midnight after it, in their time zone). Kept on the user so
    # that a game page and a deadline check read it with the seats they already load.
    away_until = models.DateField(null=True, blank=True)
    away_ends = models.DateTimeField(null=True, blank=True)

    # A bot account (issue 28.4, docs/api.md "Bot accounts"): marked for good by the human who
    # runs it (accounts/bots.py), it plays only through the API with a `bot` token. The owner
    # is kept by username (`to_field`), so that "a bot by fay" is shown wherever the bot's name
    # is without reading the owner's row (no join on any page; usernames are not renamed).
    is_bot = models.BooleanField(_("Bot account"), default=False, editable=False)
    bot_owner = models.ForeignKey(
        "self",
        to_field="username",
        db_column="bot_owner",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bots",
        editable=False,
        help_text=_("The player who runs this bot account and marked it."),
    )
    bot_since = models.DateTimeField(null=True, blank=True, editable=False)

    # Not stored: set on the instance by accounts/tokens.authenticate for a bot account's API
    # call with a `bot` token, the only way a bot account may act at a table
    # (games.actions.base.check_can_play). A user read for a page or a session is never so marked.
    plays_by_bot_token = False

    @property
    def is_away(self) -> bool:
        return self.away_ends is not None and self.away_ends > timezone.now()

    @property
    def is_suspended(self) -> bool:
        if not self.suspended:
            return False
        return self.suspended_until is None or self.suspended_until > timezone.now()

    @property
    def suspension_message(self) -> str:
        """Why this player may not act now (empty when they may)."""
        if not self.is_suspended:
            return ""
        until = (
            f" until {timezone.localtime(self.suspended_until):%d %b %Y %H:%M}"
            if self.suspended_until
            else ""
        )
        reason = f": {self.suspension_reason}" if self.suspension_reason else ""
        return f"Your account is suspended{until}{reason}. You can read, but not play or chat."

    @property
    def name(self) -> str:
        """The name other players see."""
        return self.display_name or self.username

    @property
    def bot_by(self) -> str:
        """ "a bot by fay": the owner's username for a bot account (no query), else ""."""
        return (self.bot_owner_id or "?") if self.is_bot else ""

    def get_absolute_url(self) -> str:
        """The player's public page (issue 27.1)."""
        return reverse("player", args=[self.username])

    def __str__(self) -> str:
        return self.name


class Follow(models.Model):
    """One player following another (issue 27.2): private to the follower. Nobody is told, and
    no page lists a player's followers; it only orders the follower's invitation suggestions
    and lists the people they follow on their own profile."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class EmailSuppression(models.Model):
    """An address Geartable never e-mails an invitation to: its owner said no, or it bounced."""

    class Reason(models.TextChoices):
        UNSUBSCRIBED = "unsubscribed", "Asked for no more invitations"
        BOUNCED = "bounced", "Bounced"

    email = models.EmailField(unique=True, help_text="Stored lower-case.")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.email} ({self.get_reason_display()})"

    def save(self, *args, **kwargs):
        self.email = self.email.strip().lower()
        super().save(*args, **kwargs)

    @classmethod
    def covers(cls, email: str) -> bool:
        return cls.objects.filter(email=email.strip().lower()).exists()

    @classmethod
    def add(cls, email: str, reason: str) -> None:
        cls.objects.get_or_create(email=email.strip().lower(), defaults={"reason": reason})


class Vacation(models.Model):
    """One stretch away: the calendar days it covers count against the yearly allowance
    (GEARTABLE_VACATION_DAYS_PER_YEAR). Ended early, it covers the days up to the day it ended."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    first_day = models.DateField()
    last_day = models.DateField()
    started = models.DateTimeField()
    ends = models.DateTimeField(help_text="When the player is back (planned).")
    ended = models.DateTimeField(null=True, blank=True, help_text="Ended early by the player.")

    class Meta:
        ordering = ["user", "-first_day", "-pk"]
        indexes = [models.Index(fields=["user", "last_day"], name="vacation_user_idx")]

    def __str__(self) -> str:
        return f"{self.user} away {self.first_day}–{self.last_day}"

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1


class PushSubscription(models.Model):
    """One device (a browser's push subscription) that may be sent Web Push notifications: the
    push service's endpoint and the keys that encrypt for it (RFC 8291). Removable from the
    profile; deleted when the push service answers 404 or 410 (the device unsubscribed)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the device's P-256 public key, base64url
    auth = models.CharField(max_length=30)  # the 16-byte auth secret, base64url
    user_agent = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created", "-pk"]
        indexes = [models.Index(fields=["user", "created"], name="push_subscription_user_idx")]

    def __str__(self) -> str:
        return f"{self.device} of {self.user}"

    @property
    def device(self) -> str:
        """A short name for the profile's list: browser and system from the user agent."""
        agent = self.user_agent
        browser = next(
            (
                name
                for token, name in (
                    ("Edg/", "Edge"),
                    ("Firefox/", "Firefox"),
                    ("Chrome/", "Chrome"),
                    ("Safari/", "Safari"),
                )
                if token in agent
            ),
            "A browser",
        )
        system = next(
            (
                name
                for token, name in (
                    ("Android", "Android"),
                    ("iPhone", "iPhone"),
                    ("iPad", "iPad"),
                    ("Windows", "Windows"),
                    ("Mac OS", "macOS"),
                    ("Linux", "Linux"),
                )
                if token in agent
            ),
            "",
        )
        return f"{browser} on {system}" if system else browser


class ApiToken(models.Model):
    """A personal access token for the API (docs/api.md). The token itself (`gt_<key>_<secret>`)
    is shown once, at creation; only its public `key` (to find the row) and the SHA-256 of its
    secret are kept. It authenticates the API's calls and nothing else: never a session, never
    the admin (accounts/tokens.py)."""

    class Scope(models.TextChoices):
        READ = "read", _("Read: your games, their logs and chats")
        PLAY = "play", _("Play: moves and chat messages")
        BOT = "bot", _("Bot: play as this bot account (read and play its games)")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text=_("What the token is for, in your words."))
    key = models.CharField(max_length=12, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False)  # SHA-256 of the secret, hex
    scopes = models.CharField(max_length=40, help_text="Space-separated: read, play, bot.")
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(null=True, blank=True, help_text="Empty: never.")
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} (gt_{self.key}…) of {self.user}"

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())

    @property
    def is_expired(self) -> bool:
        return self.expires is not None and self.expires <= timezone.now()
