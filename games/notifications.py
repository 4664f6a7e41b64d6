"""E-mails to players: who gets which message, and sending it once.

Services call `queue()` inside their transaction: it records one Notification row per player
(a unique key makes it at most once per player, game, turn and kind): the row is the outbox
entry (games/outbox.py). A Celery task queued on commit sends it; the beat's sweep re-queues it
if that task is lost or the send fails. Templates come in trios per message:
templates/emails/<kind>_subject.txt, <kind>.txt and <kind>.html.
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import timedelta
from urllib.parse import urlsplit

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import effects, live, outbox, sql, vacation, webpush
from games.models import (
    Digest,
    Game,
    Invitation,
    ModerationAction,
    Notification,
    Push,
    Seat,
    Status,
    seat_names,
)
from games.pages import page
from games.reads import invitations

log = logging.getLogger(__name__)

Kind = Notification.Kind

# Which profile switch governs a kind of e-mail (None: always sent, e.g. "you were replaced").
PREFERENCE = {
    Kind.YOUR_TURN: "notify_turn",
    Kind.TURN_RESOLVED: "notify_turn",
    Kind.GAME_OVER: "email_game_over",
    Kind.REMINDER: "notify_reminder",
    Kind.REPLACED: None,
    Kind.PLAYER_REPLACED: None,
    Kind.ABORTED: None,
}
UNSUBSCRIBE_SALT = "geartable.unsubscribe"

# A notification written at most once: one INSERT that writes nothing if the row is there.
_insert_once = sql.InsertOnce(Notification)


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def may_mail(user, kind: str) -> bool:
    """Never a bot (no user, or a bot account: no person reads it, issue 28.4), an inactive or
    suspended user, or one who turned it off."""
    if user is None or user.is_bot or not user.is_active or not user.email or user.is_suspended:
        return False
    preference = PREFERENCE[kind]
    return preference is None or getattr(user, preference)


def queue(game: Game, kind: str, seats, *, turn: int = 0, about: int = 0) -> list[int]:
    """Record one e-mail per eligible player and send each after commit. Call inside the
    game's transaction. Returns the ids of the notifications created."""
    created: list[Notification] = []
    for seat in seats:
        user = seat.user
        # E-mail, a device, or both (the e-mail row is the notification's; a player who wants
        # pushes only has it skipped: games/webpush.py).
        if not may_mail(user, kind) and not (
            webpush.may_push(user, kind) and webpush.has_devices(user)
        ):
            continue
        # At most once (the unique key): one INSERT that writes nothing if the row is there.
        note = Notification(
            kind=kind,
            user=user,
            game=game,
            turn=turn,
            about=about,
            next_attempt=outbox.first_attempt(),
        )
        if _insert_once(note) is not None:
            created.append(note)
    # A player with devices subscribed is pushed first; their e-mail waits (games/webpush.py).
    waiting = set(webpush.queue(created))
    # The move is committed whatever happens to its e-mail: a broker that cannot be reached is
    # logged, and the sweep sends the row later.
    for note in created:
        if note.pk not in waiting:
            effects.after_commit("games.tasks.send_notification", note.pk)
    return [note.pk for note in created]


# --- unsubscribe -------------------------------------------------------------------------------


PREFERENCE_CODES = {
    "t": "notify_turn",
    "r": "notify_reminder",
    "i": "notify_invitation",
    "g": "email_game_over",
}


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


def message_id(row) -> str:
    """A stable Message-ID per outbox row: a message sent twice (a worker killed between the
    SMTP server's answer and the commit of SENT) carries the same id, so it is recognisable."""
    domain = urlsplit(settings.SITE_URL).hostname or "geartable.local"
    return f"<{row.message_id_local}@{domain}>"


def render_trio(
    name: str, to: str, context: dict, headers: dict | None = None
) -> EmailMultiAlternatives:
    """Render templates/emails/<name>_subject.txt, <name>.txt and <name>.html."""
    context = {"site_url": settings.SITE_URL, **context}
    subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
    text = render_to_string(f"emails/{name}.txt", context)
    html = render_to_string(f"emails/{name}.html", context)
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers or {})
    message.attach_alternative(html, "text/html")
    return message


def transmit(message: EmailMultiAlternatives) -> None:
    """The SMTP conversation of one built message, bounded by EMAIL_SEND_DEADLINE
    (config/mail.py)."""
    message.send()


# Turn e-mails stop being worth sending once the turn they announce is over.
TURN_KINDS = (Kind.YOUR_TURN, Kind.REMINDER, Kind.TURN_RESOLVED)
# What a player who chose the daily digest gets in it instead (reminders and the end of a game
# still come at once: they are about a deadline, and once per game).
DIGESTED = (Kind.YOUR_TURN, Kind.TURN_RESOLVED)
# What a player watching the game's page sees happen there instead (a reminder of a deadline
# still goes: the page does not ring).
WATCHED_KINDS = (Kind.YOUR_TURN, Kind.TURN_RESOLVED)


def unwanted(note: Notification) -> str:
    """Why this e-mail should not go out now, or "" if it should. A row whose earlier attempt
    may have arrived is only held to the player's own choices (`finishing`)."""
    if not may_mail(note.user, note.kind):  # preferences may have changed since queued
        return "No longer wanted: the player turned it off or cannot be mailed."
    if note.user.email_digest and note.kind in DIGESTED:
        return "Left for the player's daily digest."
    if finishing(note):
        return ""
    if not note.user.email_with_push and webpush.reached(note.pk):
        return "Not needed: a notification reached the player's device."
    return _overtaken(note, note)


def finishing(row) -> bool:
    """Was an earlier attempt of this row cut off in the middle of its SMTP conversation (its
    worker killed: a lost claim; or cut off during DATA)? Then the message may or may not have
    arrived, and it is sent again with its Message-ID whatever changed since (the turn passed,
    the game or the table stopped, the player's page is open, a push arrived, the player went
    away): at least once, never a loss. Only the recipient's own choices (turned off, the
    suppression list, cannot be mailed) still stop it. Sent so, it counts as a possible double
    (`outbox.MAYBE_DOUBLED`, the outbox page; docs/delivery.md)."""
    return row.maybe_sent


def _overtaken(note: Notification, row: Notification | Push) -> str:
    """Why the news of `note` is no longer worth sending by `row` (the e-mail itself or one of
    its pushes, whose own attempts and age count), or "": one rule for both channels."""
    if note.kind in WATCHED_KINDS and is_watching(note.game_id, note.user_id):
        return "Not needed: the player had the game open."
    if note.kind in TURN_KINDS and not note.game.is_active:
        # Aborted or finished since it was written: there is no turn to play, late or not
        # (the game's own e-mail, "aborted" or "game over", tells the player).
        return f"No longer wanted: the game is {note.game.get_status_display().lower()}."
    late = row.attempts > 1 or row.created < timezone.now() - outbox.seconds("OUTBOX_MAIL_GRACE")
    if late and note.kind in TURN_KINDS and note.game.turn != note.turn:
        # A retry after an outage: the turn it announces has passed, the player has moved on.
        return "No longer wanted: the turn it announced is over."
    return ""


def is_watching(game_id: int, user_id: int, *, now=None) -> bool:
    """Has this player's open page of the game checked for news within
    GEARTABLE_WATCHING_SECONDS (games.actions.watching.note_watching), or has its open stream marked
    them watching (games.live.mark_watching)? Then they see the news there."""
    window = settings.GEARTABLE_WATCHING_SECONDS
    if not window:
        return False
    if live.streamed(game_id, user_id):
        return True
    since = (now or timezone.now()) - timedelta(seconds=window)
    return Seat.objects.filter(game_id=game_id, user_id=user_id, watched__gte=since).exists()


def deliver(notification_id: int) -> bool:
    """Send one notification if it is still pending. Idempotent: a second run sends nothing.

    Claimed in a short transaction of its own, sent with no lock held, then marked: a worker
    that dies mid-way leaves the row SENDING, and the sweep sends it again only after the claim
    times out (games/outbox.py). Raises the SMTP error after recording it, for the task."""
    note = outbox.claim(Notification.objects.select_related("user", "game"), notification_id)
    if note is None:
        return False
    reason = unwanted(note)
    if reason:
        outbox.mark_skipped(note, reason)
        return False
    if not finishing(note) and vacation.hold_for_return(note):  # away: it waits for the return
        return False

    def build() -> EmailMultiAlternatives:
        context, headers = _context(note)
        headers["Message-ID"] = message_id(note)
        with timezone.override(_zone(note.user)):  # deadlines in the player's own time zone
            return render_trio(note.kind, note.user.email, context, headers)

    return send_claimed(note, build)


# --- pushes to devices ------------------------------------------------------------------------


def push_unwanted(push: Push) -> str:
    """Why this push should not go now, or "": the e-mail's rules (`unwanted`) but the digest,
    which is a choice about e-mail."""
    note = push.notification
    if not webpush.may_push(note.user, note.kind):  # preferences may have changed since
        return "No longer wanted: the player turned it off or cannot be reached."
    return "" if finishing(push) else _overtaken(note, push)


def deliver_push(push_id: int) -> bool:
    """Send one push if it is still pending, as `deliver` sends an e-mail: claimed, sent with
    no lock held, marked. A device gone (404/410) is deleted; a failure is retried with the
    outbox's backoff; either way, if no push of the notification reached the player, its
    e-mail goes now (`webpush.email_now_if_unreached`). Raises the error after recording it."""
    push = outbox.claim(
        Push.objects.select_related(
            "notification__user",
            "notification__game",
            "invitation__user",
            "invitation__inviter",
            "invitation__game",
            "subscription",
        ),
        push_id,
    )
    if push is None:
        return False
    if push.invitation_id:
        return _deliver_invitation_push(push)
    note = push.notification

    def unreached() -> None:
        webpush.email_now_if_unreached(note.pk)

    if push.subscription is None:
        outbox.mark_skipped(push, "Not sent: the device was removed.")
        unreached()
        return False
    reason = push_unwanted(push)
    if reason:
        outbox.mark_skipped(push, reason)
        return False
    if not finishing(push) and vacation.hold_push_for_return(push):
        return False
    topic, urgent = webpush.topic(note.game_id), note.kind in webpush.URGENT
    return _send_push(push, lambda: push_payload(note), topic, urgent, unreached)


def _deliver_invitation_push(push: Push) -> bool:
    """A push of an invitation (by username, or a rematch offer), beside its e-mail, which
    keeps its own rules (games/reads/invitations.py): not sent once the table is taken or gone."""
    invitation = push.invitation
    reason = ""
    if push.subscription is None:
        reason = "Not sent: the device was removed."
    elif not webpush.may_push(invitation.user, "invitation"):
        reason = "No longer wanted: the player cannot be reached."
    elif not finishing(push):
        reason = invitations.not_owed(invitation)
    if reason:
        outbox.mark_skipped(push, reason)
        return False
    topic = webpush.topic(invitation.game_id)
    return _send_push(push, lambda: invitation_payload(invitation), topic, True, lambda: None)


def _send_push(push: Push, build, topic: str, urgent: bool, unreached) -> bool:
    """Build the payload of a claimed push, send it, record what happened (`send_claimed`'s
    rules: a payload that cannot be built fails at once, any error while sending is retried);
    `unreached` runs after any attempt that did not reach the device."""
    try:
        payload = build()
    except Exception as exc:
        log.exception("Push %s could not be built", push.pk)
        outbox.mark_failed(push, repr(exc), final=True)
        unreached()
        raise
    outbox.mark_transmitting(push)
    try:
        webpush.transmit(push.subscription, payload, topic=topic, urgent=urgent)
    except webpush.Gone as exc:
        push.subscription.delete()  # the push's own row keeps its history, without the device
        outbox.mark_skipped(push, str(exc))
        unreached()
        return False
    except webpush.Refused as exc:  # a device the server may not POST to: dropped for good
        log.warning("Push %s refused: %s", push.pk, exc)
        push.subscription.delete()
        outbox.mark_failed(push, str(exc), final=True)
        unreached()
        return False
    except Exception as exc:  # refused, unreachable, timed out: retried with backoff
        outbox.mark_failed(push, repr(exc))
        unreached()
        raise
    outbox.mark_sent(push)
    type(push.subscription).objects.filter(pk=push.subscription_id).update(
        last_success=timezone.now()
    )
    return True


def invitation_payload(invitation: Invitation) -> dict:
    """What the phone shows of an invitation: who (named as the e-mail names them), which
    table, its link."""
    game = invitation.game
    who = invitations.inviter_name(invitation.inviter, to_player=True)
    what = "offers a rematch" if invitation.via == Invitation.Via.REMATCH else "invites you"
    return {
        "title": f"{who} {what}: {game.get_kind_display()} #{game.pk}"[:120],
        "body": "Open the table to join it.",
        "url": game.get_absolute_url(),
        "tag": webpush.topic(game.pk),
        "waiting": _waiting(invitation.user_id),
    }


def _waiting(user_id: int) -> int:
    return Seat.objects.filter(user_id=user_id, to_act=True, game__status=Status.ACTIVE).count()


# What the phone shows under the title when the e-mail's story has no line to offer.
PUSH_BODY = {
    Kind.YOUR_TURN: "It is your turn.",
    Kind.TURN_RESOLVED: "Program your robots for the next turn.",
    Kind.GAME_OVER: "See how it ended.",
    Kind.REMINDER: "Play before the deadline, or a bot plays for you.",
    Kind.REPLACED: "You missed too many deadlines: a bot plays your seat now.",
    Kind.PLAYER_REPLACED: "A bot plays their seat now.",
    Kind.ABORTED: "A moderator stopped the game.",
}


def push_payload(note: Notification) -> dict:
    """What the phone shows: the e-mail's subject as the title, the last thing that happened
    as the player's own page tells it (`_context`: never another seat's hand, a program or the
    deck), the game's link, a tag per game (a newer one replaces it on the device) and the
    number of games waiting for the player (the app's badge)."""
    context, _ = _context(note)
    context = {"site_url": settings.SITE_URL, **context}
    with timezone.override(_zone(note.user)):
        title = " ".join(render_to_string(f"emails/{note.kind}_subject.txt", context).split())
    lines = context.get("events") or context.get("story") or []
    # The last two things that happened (a Geared turn: a play, then the draw that ends it).
    body = " ".join(" ".join(str(line).split()) for line in lines[-2:]) or PUSH_BODY[note.kind]
    return {
        "title": title[:120],
        "body": body[:240],
        "url": note.game.get_absolute_url(),
        "tag": webpush.topic(note.game_id),
        "waiting": _waiting(note.user_id),
    }


def send_claimed(row, build) -> bool:
    """Build the message of a claimed outbox row, send it, and record what happened:

    - SENT;
    - FAILED at once if the message could not even be built (a bug: retrying would not help),
      unless the task's soft time limit cut the building off (then it is retried);
    - PENDING again with its next attempt if sending failed, whatever the error: refused,
      unreachable, or cut off in the middle (the send's deadline, the task's soft time limit);
      a cut-off whose message may have arrived is marked so (`maybe_sent`) and sent again with
      the same Message-ID (docs/delivery.md). The error is raised again for the task."""
    try:
        message = build()
    except SoftTimeLimitExceeded as exc:  # cut off while building: nothing wrong with it
        outbox.mark_failed(row, repr(exc))
        raise
    except Exception as exc:
        log.exception("E-mail %s could not be built", row.message_id_local)
        outbox.mark_failed(row, repr(exc), final=True)
        raise
    outbox.mark_transmitting(row)
    try:
        transmit(message)
    except Exception as exc:  # any error while sending, the soft time limit's too: retried
        if getattr(exc, "maybe_delivered", False):  # cut off during DATA (config/mail.py)
            outbox.mark_cut_off(row, repr(exc))
        else:
            outbox.mark_failed(row, repr(exc))
        raise
    outbox.mark_sent(row)
    return True


def _zone(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _context(note: Notification) -> tuple[dict, dict]:
    game, user = note.game, note.user
    seats = list(game.seats.select_related("user", "replaced_user").order_by("position"))
    me = next((s for s in seats if s.user_id == user.pk), None)
    names = seat_names(seats)
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
    game_page = page(game.kind)
    context.update(game_page.email_context(note.kind, game, seat_id, names, note.turn))
    context["turn_noun"], context["missed"] = game_page.TURN_NOUN, game_page.MISSED
    if note.kind == Kind.GAME_OVER and game.result:
        context["result"] = _result_lines(game, names)
        context["won"] = seat_id in game.result.get("winners", [])
    if note.kind == Kind.ABORTED:  # why, as the game's page says it to its players
        context["reason"] = (
            ModerationAction.objects.filter(game=game, action="abort game")
            .order_by("-pk")
            .values_list("reason", flat=True)
            .first()
            or ""
        ).strip()
    if note.kind == Kind.PLAYER_REPLACED:
        replaced = next((s for s in seats if s.position == note.about), None)
        context["replaced_name"] = (
            replaced.replaced_user.name if replaced and replaced.replaced_user else "A player"
        )
    return context, headers


def _result_lines(game: Game, names: dict) -> list[str]:
    scores = game.result.get("scores", {})
    ranking = game.result.get("ranking") or sorted(scores, key=lambda s: -scores[s])
    return [f"{names.get(s, s)}: {scores.get(s, 0)} points" for s in ranking]


# --- invitations -------------------------------------------------------------------------------


def send_invitation(invitation_id: int) -> bool:
    """Idempotent: an invitation is sent once, however often the task runs (claimed as a
    Notification is; see deliver())."""
    invitation = outbox.claim(
        Invitation.objects.select_related("game", "inviter", "user"), invitation_id
    )
    if invitation is None:
        return False
    game = invitation.game
    headers = {"Message-ID": message_id(invitation)}
    decline = unsubscribe = None
    # The invitee's rules again (games/reads/invitations.py): preferences and the suppression list
    # may have changed since it was written; and the table's: cancelled, started, taken up.
    reason = invitations.email_unwanted(invitation)
    if not reason and not finishing(invitation):
        reason = invitations.not_owed(invitation)
    if reason:
        outbox.mark_skipped(invitation, reason)
        return False
    if not invitations.by_address(invitation):
        to, name = invitation.user.email, invitation.user.name
        link = absolute(reverse("game", args=[game.pk]))
        token = unsubscribe_token(invitation.user, "notify_invitation")
        unsubscribe = absolute(reverse("unsubscribe", args=[token]))
        headers["List-Unsubscribe"] = _OneLineHeader("List-Unsubscribe", f"<{unsubscribe}>")
    else:
        to, name = invitation.email, None
        link = absolute(reverse("accept_invitation", args=[invitation.token]))
        decline = absolute(reverse("decline_invitation", args=[invitation.token]))
        headers["List-Unsubscribe"] = _OneLineHeader("List-Unsubscribe", f"<{decline}>")
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    context = {
        "game": game,
        # User text in the e-mail a spammer would want: quoted, and never link-like; to an
        # address typed in, the username only (games/reads/invitations.py).
        "inviter": invitations.inviter_name(invitation.inviter, to_player=name is not None),
        "name": name,
        "link": link,
        "decline": decline,
        "unsubscribe": unsubscribe,
    }
    return send_claimed(invitation, lambda: render_trio("invitation", to, context, headers))


def human_seats(game: Game, *, exclude: Seat | None = None) -> list[Seat]:
    return [
        s
        for s in game.seats.select_related("user", "replaced_user")
        if s.user_id and not s.bot and (exclude is None or s.pk != exclude.pk)
    ]


# --- the daily digest ------------------------------------------------------------------------


def digest_candidates():
    """Players who chose the digest, may be mailed about turns, and have a game waiting."""

    return User.objects.filter(
        email_digest=True,
        notify_turn=True,
        is_active=True,
        seats__to_act=True,
        seats__game__status=Status.ACTIVE,
    ).distinct()


def queue_digests(now=None) -> list[int]:
    """Hourly: a digest row for each candidate whose local time is GEARTABLE_DIGEST_HOUR, once a
    day (the unique key), each sent after commit. Returns the ids of the rows created."""
    now = now or timezone.now()
    created_ids = []
    for user in digest_candidates():
        local = now.astimezone(_zone(user))
        if local.hour != settings.GEARTABLE_DIGEST_HOUR or not may_mail(user, Kind.YOUR_TURN):
            continue
        digest, created = Digest.objects.get_or_create(
            user=user, day=local.date(), defaults={"next_attempt": outbox.first_attempt()}
        )
        if created:
            created_ids.append(digest.pk)
            effects.after_commit("games.tasks.send_digest", digest.pk)
    return created_ids


def deliver_digest(digest_id: int) -> bool:
    """Send one digest if it is still pending, as deliver() sends a notification."""
    digest = outbox.claim(Digest.objects.select_related("user"), digest_id)
    if digest is None:
        return False
    if not finishing(digest) and vacation.skip_digest(digest):
        return False
    user = digest.user
    waiting = list(
        Seat.objects.filter(user=user, to_act=True, game__status=Status.ACTIVE)
        .select_related("game")
        .order_by("game__deadline", "game_id")
    )
    if not may_mail(user, Kind.YOUR_TURN) or not user.email_digest:
        outbox.mark_skipped(digest, "No longer wanted: the player turned it off.")
        return False
    if not waiting:  # a digest of nothing says nothing, even one begun before
        outbox.mark_skipped(digest, "Nothing waits for the player any more.")
        return False
    unsubscribe = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, "notify_turn")]))
    context = {
        "name": user.name,
        "games": [{"game": s.game, "link": absolute(s.game.get_absolute_url())} for s in waiting],
        "link": absolute(reverse("my_games")),
        "unsubscribe": unsubscribe,
        "profile_link": absolute(reverse("profile")),
    }
    headers = {
        "Message-ID": message_id(digest),
        "List-Unsubscribe": _OneLineHeader("List-Unsubscribe", f"<{unsubscribe}>"),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }

    def build() -> EmailMultiAlternatives:
        with timezone.override(_zone(user)):
            return render_trio("digest", user.email, context, headers)

    return send_claimed(digest, build)
