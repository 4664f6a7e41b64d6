"""Delivering a queued push to a device: the e-mail's rules (but the digest), the e-mail's story
as its payload, one send (the trip itself is games/notifications/push.py)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from games import vacation
from games.models import (
    Invitation,
    Notification,
    Push,
    Seat,
    Status,
)
from games.notifications import outbox
from games.notifications import push as webpush
from games.notifications.email import _context, speaking_to
from games.notifications.queueing import Kind, _overtaken, finishing
from games.reads import invitations

log = logging.getLogger(__name__)


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
    with speaking_to(invitation.user):
        who = invitations.inviter_name(invitation.inviter, to_player=True)
        what = {"who": who, "game": game.get_kind_display(), "number": game.pk}
        if invitation.via == Invitation.Via.REMATCH:
            title = gettext("%(who)s offers a rematch: %(game)s #%(number)s") % what
        else:
            title = gettext("%(who)s invites you: %(game)s #%(number)s") % what
        body = gettext("Open the table to join it.")
    return {
        "title": title[:120],
        "body": body,
        "url": game.get_absolute_url(),
        "tag": webpush.topic(game.pk),
        "waiting": _waiting(invitation.user_id),
    }


def _waiting(user_id: int) -> int:
    return Seat.objects.filter(user_id=user_id, to_act=True, game__status=Status.ACTIVE).count()


# What the phone shows under the title when the e-mail's story has no line to offer.
PUSH_BODY = {
    Kind.YOUR_TURN: gettext_lazy("It is your turn."),
    Kind.TURN_RESOLVED: gettext_lazy("Program your robots for the next turn."),
    Kind.GAME_OVER: gettext_lazy("See how it ended."),
    Kind.REMINDER: gettext_lazy("Play before the deadline, or a bot plays for you."),
    Kind.REPLACED: gettext_lazy("You missed too many deadlines: a bot plays your seat now."),
    Kind.PLAYER_REPLACED: gettext_lazy("A bot plays their seat now."),
    Kind.ABORTED: gettext_lazy("A moderator stopped the game."),
}


def push_payload(note: Notification) -> dict:
    """What the phone shows: the e-mail's subject as the title, the last thing that happened
    as the player's own page tells it (`_context`: never another seat's hand, a program or the
    deck), the game's link, a tag per game (a newer one replaces it on the device) and the
    number of games waiting for the player (the app's badge)."""
    with speaking_to(note.user):  # the player's language and time zone, the log's lines too
        context, _ = _context(note)
        context = {"site_url": settings.SITE_URL, **context}
        title = " ".join(render_to_string(f"emails/{note.kind}_subject.txt", context).split())
        lines = context.get("events") or context.get("story") or []
        # The last two things that happened (a Geared turn: a play, then the draw that ends it).
        body = " ".join(" ".join(str(line).split()) for line in lines[-2:])
        body = body or str(PUSH_BODY[note.kind])
    return {
        "title": title[:120],
        "body": body[:240],
        "url": note.game.get_absolute_url(),
        "tag": webpush.topic(note.game_id),
        "waiting": _waiting(note.user_id),
    }
