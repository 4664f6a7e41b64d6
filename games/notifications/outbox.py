"""The outbox: what the server owes, read back from the database, and re-queued when overdue.

Every side effect is first a row written in the transaction that decided it (docs/delivery.md):
- a game owes a step (`Game.due_since`): an Out of Gears turn whose programs are all in, or a
  bot whose turn it is;
- an e-mail is owed (`Notification` and `Invitation` rows, state PENDING).

The task queued on commit normally does the work within milliseconds. When it is lost (the
broker was down, a worker was killed, Redis dropped its queue), the beat's `sweep` finds the work
by these indexed queries and queues it again. Tasks are idempotent, so a re-queued task that
finds its work done does nothing.

E-mails are sent at least once per row, and once but for one case: a worker claims the row
(PENDING → SENDING) in its own short transaction before it talks to SMTP and marks it SENT after;
a claim whose worker died goes back to PENDING only after OUTBOX_CLAIM_TIMEOUT (above the task's
hard time limit). One whose worker had begun its SMTP conversation may or may not have arrived:
it is sent again whatever changed since (notifications.finishing), with the same Message-ID, so
that a double is recognisable as one, and counted as a possible double (MAYBE_DOUBLED).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games import effects
from games.models import (
    AccountMail,
    Digest,
    Game,
    Invitation,
    Notification,
    Outgoing,
    Push,
    Status,
)

log = logging.getLogger(__name__)

State = Outgoing.State
SWEEP_LIMIT = 500  # rows of each kind per sweep; the next sweep takes the rest
MAIL_TASKS = {
    Notification: "games.tasks.send_notification",
    Invitation: "games.tasks.send_invitation",
    Digest: "games.tasks.send_digest",
    AccountMail: "games.tasks.send_account_mail",
    Push: "games.tasks.send_push",  # a Web Push to one device (games/notifications/push.py)
}
# The note of a row whose attempt was cut off mid-send.
MAYBE_SENT = "An earlier attempt was cut off in the middle of sending: it may have arrived"
# Sent after an attempt that may have arrived: the recipient may have it twice (one Message-ID).
# The outbox page counts these; a row that may have arrived and was then not sent again (its
# recipient turned such e-mail off since) is SENT with no `sent` time.
MAYBE_DOUBLED = Q(state=State.SENT, maybe_sent=True, sent__isnull=False)


def seconds(name: str) -> timedelta:
    return timedelta(seconds=getattr(settings, name))


def first_attempt() -> object:
    """`next_attempt` of a new e-mail row: the sweep leaves it to its own task for a while."""
    return timezone.now() + seconds("OUTBOX_MAIL_GRACE")


def backoff(attempts: int) -> timedelta:
    """The wait before attempt `attempts + 1`: 1 min, 2, 4, ... at most an hour (settings)."""
    base, most = settings.OUTBOX_RETRY_BASE, settings.OUTBOX_RETRY_MAX
    return timedelta(seconds=min(most, base * 2 ** max(0, min(attempts - 1, 20))))


# --- claiming and finishing one e-mail row --------------------------------------------------------


def claim(rows: QuerySet, pk: int) -> Outgoing | None:
    """Take the pending row `pk` for sending: PENDING → SENDING in one short transaction of its
    own (a conditional UPDATE: of two workers, exactly one wins). None if it is not pending
    (sent, being sent, skipped, failed, or gone)."""
    with transaction.atomic():
        taken = rows.filter(pk=pk, state=State.PENDING).update(
            state=State.SENDING, claimed=timezone.now(), attempts=F("attempts") + 1
        )
    return rows.filter(pk=pk).first() if taken else None


def mark_transmitting(row: Outgoing) -> None:
    """The claim's SMTP conversation begins now: if its worker dies from here on, the message
    may have arrived (`return_lost_claims`); before this, it cannot have."""
    type(row).objects.filter(pk=row.pk, state=State.SENDING, claimed=row.claimed).update(
        transmitting=timezone.now()
    )


def _finish(row: Outgoing, **fields) -> bool:
    """Close our claim; False if it is no longer ours (taken back after a timeout)."""
    done = (
        type(row)
        .objects.filter(pk=row.pk, state=State.SENDING, claimed=row.claimed)
        .update(claimed=None, transmitting=None, **fields)
    )
    if not done:
        log.warning("E-mail %s: the claim was taken back before it finished", row.message_id_local)
    return bool(done)


def mark_sent(row: Outgoing) -> bool:
    """SENT; `error` keeps the last problem it got over (a retry's history), if any."""
    return _finish(row, state=State.SENT, sent=timezone.now(), next_attempt=None)


def mark_skipped(row: Outgoing, reason: str) -> bool:
    """Not sent: no longer wanted. A row an earlier attempt of which may have arrived (cut
    off mid-send, `maybe_sent`: then only its recipient's own choices stop it) is counted SENT
    instead, with the reason in its note and no `sent` time: the dashboard must not call an
    e-mail the player may have got "not sent"."""
    if row.maybe_sent:
        return _finish(
            row,
            state=State.SENT,
            error=f"{MAYBE_SENT}; not sent again. {reason}"[:2000],
            next_attempt=None,
        )
    return _finish(row, state=State.SKIPPED, error=reason, next_attempt=None)


def mark_cut_off(row: Outgoing, error: str) -> bool:
    """An attempt cut off in the middle of its SMTP conversation (the send's deadline, the
    task's time limit, a connection lost while the server held the message): the outcome is
    unknown. It is sent again, with the same Message-ID, as a lost claim is; never FAILED for
    it: only a message that cannot be built fails at once."""
    note = f"{MAYBE_SENT}; sent again with the same Message-ID. {error}"
    return mark_failed(row, note, maybe_sent=True)


def mark_failed(row: Outgoing, error: str, *, final: bool = False, **fields) -> bool:
    """A failed attempt: PENDING again with the next attempt pushed back, or FAILED when it
    cannot succeed (`final`) or after OUTBOX_GIVE_UP_AFTER of trying (shown on the dashboard)."""
    now = timezone.now()
    give_up_at = row.give_up_at or row.created + seconds("OUTBOX_GIVE_UP_AFTER")
    if final or now >= give_up_at:
        log.error("E-mail %s failed for good: %s", row.message_id_local, error)
        return _finish(row, state=State.FAILED, error=error[:2000], next_attempt=None, **fields)
    log.warning("E-mail %s failed (attempt %s): %s", row.message_id_local, row.attempts, error)
    return _finish(
        row,
        state=State.PENDING,
        error=error[:2000],
        next_attempt=now + backoff(row.attempts),
        **fields,
    )


# --- the sweep --------------------------------------------------------------------------------


def overdue_games(now=None) -> QuerySet:
    """Active games owed a step for longer than OUTBOX_GAME_GRACE (index game_due_idx)."""
    now = now or timezone.now()
    return Game.objects.filter(
        status=Status.ACTIVE,
        due_since__isnull=False,
        due_since__lte=now - seconds("OUTBOX_GAME_GRACE"),
    )


def lost_claims(model, now=None) -> QuerySet:
    """SENDING rows whose worker died: claimed longer ago than OUTBOX_CLAIM_TIMEOUT (index
    *_claim_idx)."""
    now = now or timezone.now()
    return model.objects.filter(
        state=State.SENDING, claimed__lte=now - seconds("OUTBOX_CLAIM_TIMEOUT")
    )


def due_rows(model, now=None) -> QuerySet:
    """Pending rows whose next attempt has come, oldest first (index *_due_idx). A row with no
    due time at all is due (rows are written with one, but one written without it, as
    invitations once were, must not wait for ever); those come first."""
    now = now or timezone.now()
    return model.objects.filter(
        Q(next_attempt__lte=now) | Q(next_attempt__isnull=True), state=State.PENDING
    ).order_by(F("next_attempt").asc(nulls_first=True))


def return_lost_claims(model, now=None) -> int:
    """Lost claims become PENDING and due now. One whose worker died once it had begun talking
    to SMTP may or may not have arrived (`maybe_sent`): it is sent again with its Message-ID,
    whatever changed since (`notifications.finishing`), and counted as a possible double; one
    whose worker died before that sent nothing, and is sent if it is still wanted."""
    now = now or timezone.now()
    lost = lost_claims(model, now)
    returned = {"state": State.PENDING, "claimed": None, "next_attempt": now, "transmitting": None}
    mid_send = lost.filter(transmitting__isnull=False).update(
        **returned,
        maybe_sent=True,
        error=f"{MAYBE_SENT} (its worker stopped); sent again with the same Message-ID.",
    )
    before_send = lost.filter(transmitting__isnull=True).update(
        **returned, error="The worker sending it stopped before it began sending; sent again."
    )
    return mid_send + before_send


def due_mail(model, now=None) -> list[int]:
    """Pending rows whose next attempt has come (index *_due_idx), pushed back by one grace
    period as they are taken, so that a slow queue is not filled with copies."""
    now = now or timezone.now()
    with transaction.atomic():
        ids = list(
            due_rows(model, now)
            .select_for_update(skip_locked=True, of=("self",))
            .values_list("pk", flat=True)[:SWEEP_LIMIT]
        )
        model.objects.filter(pk__in=ids).update(next_attempt=now + seconds("OUTBOX_MAIL_GRACE"))
    return ids


def sweep(now=None) -> dict:
    """Re-queue everything overdue: games owed a step, e-mails owed a (new) attempt, and the
    e-mails of workers that died mid-send. Returns what it queued, for the log and tests."""
    now = now or timezone.now()
    report = {"games": 0, "emails": 0, "lost_claims": 0, "not_queued": 0}
    with effects.queueing_budget():  # a broker that fails once: the next sweep tries again
        _sweep(now, report)
    if any(report.values()):
        log.info("Outbox sweep: %s", report)
    return report


def _sweep(now, report: dict) -> None:
    for game_id in overdue_games(now).values_list("pk", flat=True)[:SWEEP_LIMIT]:
        report["games"] += 1
        report["not_queued"] += not effects.enqueue("games.tasks.catch_up", game_id)
    for model, task in MAIL_TASKS.items():
        report["lost_claims"] += return_lost_claims(model, now)
        for pk in due_mail(model, now):
            report["emails"] += 1
            report["not_queued"] += not effects.enqueue(task, pk)


def requeue_failed(model, ids=None) -> int:
    """A moderator's re-queue: FAILED (given-up) rows, or the given ones among them, are
    PENDING and due now, and retried for another OUTBOX_GIVE_UP_AFTER. Call in a transaction
    (the task is queued on commit)."""
    rows = model.objects.filter(state=State.FAILED)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    ids = list(rows.values_list("pk", flat=True))
    model.objects.filter(pk__in=ids, state=State.FAILED).update(
        state=State.PENDING,
        next_attempt=timezone.now(),
        give_up_at=timezone.now() + seconds("OUTBOX_GIVE_UP_AFTER"),
    )
    for pk in ids:
        effects.after_commit(MAIL_TASKS[model], pk)
    return len(ids)
