"""E-mails to players: who gets which message, and sending it once.

Services call `queue()` inside their transaction: it records one Notification row per player
(a unique key makes it at most once per player, game, turn and kind) and sends each after
commit through a Celery task. Templates come in trios per message: templates/emails/<kind>
_subject.txt, <kind>.txt and <kind>.html.
"""

from __future__ import annotations

import logging
import zoneinfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import engines
from games.models import Game, Invitation, Notification, Seat

log = logging.getLogger(__name__)

Kind = Notification.Kind

# Which profile switch governs a kind of e-mail (None: always sent, e.g. "you were replaced").
PREFERENCE = {
    Kind.YOUR_TURN: "notify_turn",
    Kind.TURN_RESOLVED: "notify_turn",
    Kind.GAME_OVER: "notify_turn",
    Kind.REMINDER: "notify_reminder",
    Kind.REPLACED: None,
    Kind.PLAYER_REPLACED: None,
    Kind.ABORTED: None,
}
UNSUBSCRIBE_SALT = "geartable.unsubscribe"


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def may_mail(user, kind: str) -> bool:
    """Never a bot (no user), an inactive or suspended user, or one who turned it off."""
    if user is None or not user.is_active or not user.email or user.is_suspended:
        return False
    preference = PREFERENCE[kind]
    return preference is None or getattr(user, preference)


def queue(game: Game, kind: str, seats, *, turn: int = 0, about: int = 0) -> list[int]:
    """Record one e-mail per eligible player and send each after commit. Call inside the
    game's transaction. Returns the ids of the notifications created."""
    from games import tasks

    created_ids = []
    for seat in seats:
        user = seat.user
        if not may_mail(user, kind):
            continue
        note, created = Notification.objects.get_or_create(
            kind=kind, user=user, game=game, turn=turn, about=about
        )
        if created:
            created_ids.append(note.pk)
    # robust: the move is committed whatever happens to its e-mail (a broker that is down, or
    # an eager task's retry raised into the request); the failure is logged, not raised.
    for note_id in created_ids:
        transaction.on_commit(
            lambda note_id=note_id: tasks.send_notification.delay(note_id), robust=True
        )
    return created_ids


# --- unsubscribe -------------------------------------------------------------------------------


PREFERENCE_CODES = {"t": "notify_turn", "r": "notify_reminder"}


def _unsubscribe_signer(preference: str) -> signing.TimestampSigner:
    # The preference is in the salt: a link for reminders can never turn off anything else.
    return signing.TimestampSigner(salt=f"{UNSUBSCRIBE_SALT}:{preference}")


def unsubscribe_token(user, preference: str) -> str:
    """A signed, dated link token: the user's random mail key (never their id) and one switch."""
    code = next(c for c, p in PREFERENCE_CODES.items() if p == preference)
    return f"{code}.{_unsubscribe_signer(preference).sign(user.mail_key)}"


def read_unsubscribe_token(token: str) -> tuple[str, str]:
    """(mail key, preference) from a token; signing.BadSignature if forged, altered or older
    than GEARTABLE_UNSUBSCRIBE_LINK_DAYS (SignatureExpired is a BadSignature)."""
    code, _, signed = token.partition(".")
    preference = PREFERENCE_CODES.get(code)
    if preference is None:
        raise signing.BadSignature("Not an unsubscribe token")
    max_age = settings.GEARTABLE_UNSUBSCRIBE_LINK_DAYS * 86400
    return _unsubscribe_signer(preference).unsign(signed, max_age=max_age), preference


class _OneLineHeader(str):
    """A header value sent as it is, on one line. email.policy stores a value with a matching
    `name` unchanged and folds it by calling its `fold`: a plain str longer than a line would
    be RFC 2047-encoded (=?utf-8?q?=3Chttps...), which mail clients do not read as a URL."""

    def __new__(cls, name: str, value: str):
        if not value.isascii() or any(ch.isspace() for ch in value):
            raise ValueError(f"{name} must be ASCII without whitespace: {value!r}")
        header = super().__new__(cls, value)
        header.name = name
        return header

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"

    def __reduce__(self):  # copy and pickle (the locmem backend deep-copies each message)
        return (type(self), (self.name, str(self)))


# --- rendering and sending ---------------------------------------------------------------------


def send_trio(name: str, to: str, context: dict, headers: dict | None = None) -> None:
    """Render templates/emails/<name>_subject.txt, <name>.txt and <name>.html, and send."""
    context = {"site_url": settings.SITE_URL, **context}
    subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
    text = render_to_string(f"emails/{name}.txt", context)
    html = render_to_string(f"emails/{name}.html", context)
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers or {})
    message.attach_alternative(html, "text/html")
    message.send()


def deliver(notification_id: int) -> bool:
    """Send one notification if it is still pending. Idempotent: a second run sends nothing.

    The row stays locked while the message goes out, so two workers never send it twice."""
    with transaction.atomic():
        note = (
            Notification.objects.select_for_update(skip_locked=True)
            .select_related("user", "game")
            .filter(pk=notification_id, state=Notification.State.PENDING)
            .first()
        )
        if note is None:
            return False
        note.attempts += 1
        if not may_mail(note.user, note.kind):  # preferences may have changed since queued
            note.state = Notification.State.SKIPPED
            note.save(update_fields=["state", "attempts"])
            return False
        context, headers = _context(note)
        with timezone.override(_zone(note.user)):  # deadlines in the player's own time zone
            send_trio(note.kind, note.user.email, context, headers)
        note.state, note.sent, note.error = Notification.State.SENT, timezone.now(), ""
        note.save(update_fields=["state", "sent", "error", "attempts"])
    return True


def _zone(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def record_failure(notification_id: int, error: str, *, final: bool) -> None:
    # deliver() counted the attempt inside the transaction the failure rolled back: count it here.
    fields = {"error": error[:2000], "attempts": F("attempts") + 1}
    if final:
        fields["state"] = Notification.State.FAILED
        log.error("E-mail %s failed after its retries: %s", notification_id, error)
    Notification.objects.filter(pk=notification_id, state=Notification.State.PENDING).update(
        **fields
    )


def _context(note: Notification) -> tuple[dict, dict]:
    game, user = note.game, note.user
    seats = list(game.seats.select_related("user").order_by("position"))
    me = next((s for s in seats if s.user_id == user.pk), None)
    names = {s.seat_id: s.name for s in seats if s.position}
    context = {
        "name": user.name,
        "game": game,
        "link": absolute(game.get_absolute_url()),
        "deadline": game.deadline,
        "turn": note.turn,
        "profile_link": absolute(reverse("profile")),
    }
    headers = {}
    preference = PREFERENCE[note.kind]
    if preference:
        unsubscribe = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, preference)]))
        context["unsubscribe"] = unsubscribe
        headers["List-Unsubscribe"] = _OneLineHeader("List-Unsubscribe", f"<{unsubscribe}>")
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    seat_id = me.seat_id if me and me.position else None
    if game.state and note.kind == Kind.YOUR_TURN and game.kind == "geared":
        context["events"] = _geared_events_since_last_turn(game.state, seat_id, names)
    if (
        game.state
        and note.kind in (Kind.TURN_RESOLVED, Kind.GAME_OVER)
        and game.kind == "outofgears"
    ):
        context["story"] = _oog_story(
            game.state, seat_id, note.turn - 1 if note.kind == Kind.TURN_RESOLVED else None
        )
    if note.kind == Kind.GAME_OVER and game.result:
        context["result"] = _result_lines(game, names)
        context["won"] = seat_id in game.result.get("winners", [])
    if note.kind == Kind.PLAYER_REPLACED:
        replaced = next((s for s in seats if s.position == note.about), None)
        context["replaced_name"] = (
            replaced.replaced_user.name if replaced and replaced.replaced_user else "A player"
        )
    return context, headers


def _geared_events_since_last_turn(state: dict, seat: str | None, names: dict) -> list[str]:
    """What happened since this player's last turn, as they may see it (G19)."""
    from games.geared.text import describe
    from games.geared.views import view_event

    events = state["events"]
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("seat") == seat and events[i]["type"] == "drew":
            start = i + 1  # their last turn ends with their draw
            break
    return [describe(view_event(e, seat), names, seat) for e in events[start:]][-40:]


def _oog_story(state: dict, seat: str | None, turn: int | None) -> list[str]:
    from games.outofgears.text import describe

    view = engines.engine("outofgears").view(state, seat)
    robot_names = {key: r["player"] for key, r in view["robots"].items()}
    stories = view["story"]
    story = next((s for s in stories if s["turn"] == turn), stories[-1] if stories else None)
    return [describe(e, robot_names) for e in story["events"]] if story else []


def _result_lines(game: Game, names: dict) -> list[str]:
    scores = game.result.get("scores", {})
    ranking = game.result.get("ranking") or sorted(scores, key=lambda s: -scores[s])
    return [f"{names.get(s, s)}: {scores.get(s, 0)} points" for s in ranking]


# --- invitations -------------------------------------------------------------------------------


def send_invitation(invitation_id: int) -> bool:
    """Idempotent: an invitation is sent once, however often the task runs."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("game", "inviter", "user")
            .filter(pk=invitation_id, sent__isnull=True)
            .first()
        )
        if invitation is None:
            return False
        game = invitation.game
        if invitation.user is not None:
            if not may_mail(invitation.user, Kind.REPLACED):  # no preference governs invitations
                return False
            to, name = invitation.user.email, invitation.user.name
            link = absolute(reverse("game", args=[game.pk]))
        else:
            to, name = invitation.email, None
            link = absolute(reverse("accept_invitation", args=[invitation.token]))
        send_trio(
            "invitation",
            to,
            {"game": game, "inviter": invitation.inviter.name, "name": name, "link": link},
        )
        invitation.sent = timezone.now()
        invitation.save(update_fields=["sent"])
    return True


def human_seats(game: Game, *, exclude: Seat | None = None) -> list[Seat]:
    return [
        s
        for s in game.seats.select_related("user")
        if s.user_id and not s.bot and (exclude is None or s.pk != exclude.pk)
    ]
