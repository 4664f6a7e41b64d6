"""E-mails: rendering a message, sending a claimed outbox row once, a turn's e-mail and an
invitation's."""

from __future__ import annotations

import logging
import zoneinfo
from contextlib import contextmanager
from urllib.parse import urlsplit

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from games import vacation
from games.models import (
    Game,
    Invitation,
    ModerationAction,
    Notification,
    seat_names,
)
from games.notifications import outbox
from games.notifications.queueing import PREFERENCE, Kind, finishing, unwanted
from games.notifications.unsubscribe import unsubscribe_token
from games.pages import page
from games.reads import invitations

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


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


def deliver(notification_id: int) -> bool:
    """Send one notification if it is still pending. Idempotent: a second run sends nothing.

    Claimed in a short transaction of its own, sent with no lock held, then marked: a worker
    that dies mid-way leaves the row SENDING, and the sweep sends it again only after the claim
    times out (games/notifications/outbox.py). Raises the SMTP error after recording it, for the
    task."""
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
        # In the player's own language and time zone (the log's lines too: drawn in _context).
        with speaking_to(note.user):
            context, headers = _context(note)
            headers["Message-ID"] = message_id(note)
            return render_trio(note.kind, note.user.email, context, headers)

    return send_claimed(note, build)


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


@contextmanager
def speaking_to(user, language: str | None = None):
    """Draw a message for `user` in their own language and time zone (docs/i18n.md: the
    recipient's language at the moment of sending, never the sender's). `language` instead of
    theirs: an invitation to an address with no account goes out in the inviter's."""
    with timezone.override(_zone(user)), translation.override(language or language_of(user)):
        yield


def language_of(user) -> str:
    """The player's language if it is still offered, else the site's (a language dropped from
    settings.LANGUAGES leaves its players in English, not in a half-translated one)."""
    offered = {code for code, _ in settings.LANGUAGES}
    language = getattr(user, "language", "") or ""
    return language if language in offered else settings.LANGUAGE_CODE


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
            replaced.replaced_user.name
            if replaced and replaced.replaced_user
            else gettext("A player")
        )
    return context, headers


def _result_lines(game: Game, names: dict) -> list[str]:
    scores = game.result.get("scores", {})
    ranking = game.result.get("ranking") or sorted(scores, key=lambda s: -scores[s])
    return [_result_line(names.get(s, s), scores.get(s, 0)) for s in ranking]


def _result_line(name: str, points: int) -> str:
    return ngettext("%(name)s: %(points)s point", "%(name)s: %(points)s points", points) % {
        "name": name,
        "points": points,
    }


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
    recipient = invitation.inviter if name is None else invitation.user

    def build() -> EmailMultiAlternatives:
        # In the invitee's language; to an address with no account, in the inviter's.
        with speaking_to(recipient):
            context = {
                "game": game,
                # User text in the e-mail a spammer would want: quoted, and never link-like; to
                # an address typed in, the username only (games/reads/invitations.py).
                "inviter": invitations.inviter_name(invitation.inviter, to_player=name is not None),
                "name": name,
                "link": link,
                "decline": decline,
                "unsubscribe": unsubscribe,
            }
            return render_trio("invitation", to, context, headers)

    return send_claimed(invitation, build)
