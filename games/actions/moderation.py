"""Chat and moderation: the write path for chat messages, reports and moderator actions.

Every moderator action is recorded in ModerationAction (who, what, when, why) in the same
transaction as its effect. Game-changing actions lock the game row like every other change.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from games import effects, errors, vacation
from games.actions import base, deadlines
from games.live import cache as live
from games.models import (
    TURN_TIMES,
    AccountMail,
    ChatMessage,
    Digest,
    Game,
    Invitation,
    ModerationAction,
    Notification,
    Push,
    Report,
    Seat,
    Status,
)
from games.notifications import outbox
from games.notifications import queueing as notifications
from games.reads import seating

CHAT_MAX_LENGTH = 500
CHAT_RATE = (5, 15)  # at most 5 messages in 15 seconds per player, all games together


# --- chat ------------------------------------------------------------------------------------


@base.acting
def post_chat(user: User, game_id: int, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise errors.GameError(gettext("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise errors.GameError(
            gettext("A message can be at most %(most)s characters (%(count)s now).")
            % {"most": CHAT_MAX_LENGTH, "count": len(text)}
        )
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        raise errors.GameError(gettext("A message cannot contain control characters."))
    game = Game.objects.with_table(game_id)
    if game is None:
        raise errors.NotFound(gettext("There is no such game."))
    if seating.seat_of(game, user) is None:
        if seating.former_seat_of(game, user) is not None:
            raise errors.Forbidden(
                gettext("You left this game: you can read its chat, not write in it.")
            )
        raise errors.NotFound(gettext("There is no such game."))
    _check_rate(user)
    with transaction.atomic():
        message = ChatMessage.objects.post(game, user, text)  # and the chat's count
        live.forget_game(game_id)
    return message


def _check_rate(user: User) -> None:
    # Per player, not per game: ten games would otherwise give ten times the rate.
    count, seconds = CHAT_RATE
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, seconds)
    try:
        sent = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        sent = 1
    if sent > count:
        raise errors.GameError(
            gettext("You are sending messages too fast; wait a few seconds."), 429
        )


ALREADY_REPORTED = gettext_noop(
    "You have already reported this message: a moderator will look at it."
)


@base.acting  # a suspended player could flood the queue otherwise
def report_message(user: User, message_id: int, reason: str) -> Report:
    reason = (reason or "").strip()[:500]
    message = ChatMessage.objects.select_related("game").filter(pk=message_id).first()
    if message is None:
        raise errors.NotFound(gettext("There is no such message."))
    if not Seat.objects.filter(game_id=message.game_id, user=user).exists():
        raise errors.NotFound(gettext("There is no such message."))
    if message.author_id == user.pk:
        raise errors.GameError(gettext("You cannot report your own message."))
    # One report per reporter and message (the unique key): a second, with a reason or not,
    # is told so and changes nothing (the chat log shows "Reported" instead of the form).
    if Report.objects.filter(message=message, reporter=user).exists():
        raise errors.Conflict(gettext(ALREADY_REPORTED))
    if not reason:
        raise errors.GameError(gettext("Say why you report this message."))
    report, created = Report.objects.get_or_create(
        message=message, reporter=user, defaults={"reason": reason}
    )
    if not created:  # a second report at the same moment
        raise errors.Conflict(gettext(ALREADY_REPORTED))
    return report


# --- moderator actions -------------------------------------------------------------------------


def _record(moderator: User, action: str, reason: str, **targets) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=moderator, action=action, reason=reason, **targets
    )


def abort_game(moderator: User, game_id: int, reason: str) -> Game:
    with transaction.atomic():
        game = base.locked_game(game_id)
        if game.status in (Status.FINISHED, Status.ABORTED):
            raise errors.Conflict(gettext("This game is already over."))
        game.status, game.finished, game.deadline = Status.ABORTED, timezone.now(), None
        game.version += 1
        game.save(update_fields=["status", "finished", "deadline", "version", "updated"])
        Seat.objects.filter(game=game).update(to_act=False)
        live.forget_turns(game.seats.values_list("user_id", flat=True))
        notifications.queue(
            game,
            notifications.Kind.ABORTED,
            notifications.human_seats(notifications.players_of(game)),
        )
        _record(moderator, "abort game", reason, game=game)
    return game


def replace_seat(moderator: User, seat_id: int, reason: str) -> Seat:
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise errors.NotFound(gettext("There is no such seat."))
    with transaction.atomic():
        game = base.locked_game(seat.game_id)
        seat = Seat.objects.select_related("user").get(pk=seat_id)
        if game.status != Status.ACTIVE:
            raise errors.Conflict(gettext("Only a seat in a game in play can be given to a bot."))
        if seat.is_bot:
            raise errors.Conflict(gettext("A bot already plays this seat."))
        user = seat.user
        deadlines.replace_with_bot(game, seat, missed=False)
        _record(moderator, "replace seat with bot", reason, game=game, user=user)
    return seat


def extend_deadline(moderator: User, game_id: int, hours: int, reason: str) -> Game:
    if not 1 <= hours <= 24 * 14:
        raise errors.GameError(gettext("Extend by 1 hour to 14 days."))
    with transaction.atomic():
        game = base.locked_game(game_id)
        if game.status != Status.ACTIVE or game.deadline is None:
            raise errors.Conflict(gettext("This game has no deadline running."))
        old = game.deadline
        game.deadline = max(game.deadline, timezone.now()) + timedelta(hours=hours)
        game.save(update_fields=["deadline", "updated"])
        game.shown_changed()  # "due in …" on every open page
        _record(
            moderator,
            "extend deadline",
            reason,
            game=game,
            details={"from": old.isoformat(), "to": game.deadline.isoformat()},
        )
    return game


def set_time_limit(moderator: User, game_id: int, turn_seconds: int, reason: str) -> Game:
    """A game with no time limit held by the player to act: from now on it has one, and the
    turn waiting now has its whole time from now (then deadlines, reminders, misses and a
    bot's takeover follow as in any timed game). Recorded like every moderator action."""
    if turn_seconds not in {seconds for seconds, _label in TURN_TIMES if seconds}:
        raise errors.GameError(gettext("Choose a time per turn from the list."))
    with transaction.atomic():
        game = base.locked_game(game_id)
        if game.status != Status.ACTIVE:
            raise errors.Conflict(gettext("This game is not in play."))
        if game.turn_seconds or game.deadline is not None:
            raise errors.Conflict(
                gettext("This game has a time limit already: extend its deadline instead.")
            )
        game.turn_seconds = turn_seconds
        game.deadline = timezone.now() + timedelta(seconds=turn_seconds)
        game.save(update_fields=["turn_seconds", "deadline", "updated"])
        game.shown_changed()
        _record(
            moderator,
            "set time limit",
            reason,
            game=game,
            details={"turn_seconds": turn_seconds, "deadline": game.deadline.isoformat()},
        )
    return game


def set_exempt(moderator: User, game_id: int, exempt: bool, reason: str) -> Game:
    """A game that cannot wait: its deadlines run while players are away (or, unset, wait for
    them again; docs/vacation.md). Exempting a paused game resumes its clock now: the absent
    player has the time the turn had left (at most the time per turn), not the rest of their
    vacation. Recorded like every moderator action."""
    with transaction.atomic():
        game = base.locked_game(game_id)
        if game.vacation_exempt == exempt:
            raise errors.Conflict(
                gettext("This game is already exempt.")
                if exempt
                else gettext("This game is not exempt.")
            )
        details: dict = {"exempt": exempt}
        game.vacation_exempt = exempt
        fields = ["vacation_exempt", "updated"]
        now = timezone.now()
        if exempt and game.deadline and game.turn_seconds:
            latest = now + timedelta(seconds=game.turn_seconds)
            paused = any(
                s.user_id
                and s.to_act
                and vacation.is_away(s.user, now)
                and vacation.is_paused_for(game, s.user.away_ends)
                for s in game.seats.select_related("user")
            )
            if paused:  # the clock resumes now, with the time the turn had left
                latest = now + game.paused_left
            if game.deadline > latest:
                details |= {"from": game.deadline.isoformat(), "to": latest.isoformat()}
                game.deadline = latest
                fields.append("deadline")
        game.save(update_fields=fields)
        game.shown_changed()  # a pause shown or no longer shown
        _record(
            moderator,
            "exempt from vacations" if exempt else "end vacation exemption",
            reason,
            game=game,
            details=details,
        )
    return game


def rerun_resolution(moderator: User, game_id: int, reason: str) -> None:
    """A stuck game (a complete Out of Gears turn, or a bot that has not moved): queue the
    same idempotent repair the outbox sweep uses."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(gettext("There is no such game."))
    if game.status != Status.ACTIVE or game.due_since is None:
        raise errors.Conflict(gettext("This game is not waiting for the server."))
    with transaction.atomic():
        _record(moderator, "resolve turn again", reason, game=game, details={"turn": game.turn})
        effects.after_commit("games.tasks.catch_up", game_id)


def requeue_emails(moderator: User, reason: str, *, notification_ids=None) -> int:
    """E-mails given up on (FAILED): send them again, with another day of retries. All of them,
    or only the given notifications."""
    with transaction.atomic():
        counts = {"notifications": outbox.requeue_failed(Notification, notification_ids)}
        if notification_ids is None:
            counts["invitations"] = outbox.requeue_failed(Invitation)
            counts["digests"] = outbox.requeue_failed(Digest)
            counts["account_mails"] = outbox.requeue_failed(AccountMail)
            counts["pushes"] = outbox.requeue_failed(Push)
        _record(moderator, "re-queue e-mails", reason, details=counts)
    return sum(counts.values())


def suspend(moderator: User, user: User, reason: str, until=None) -> None:
    if not reason.strip():
        raise errors.GameError(gettext("Give a reason: the player is told why."))
    if until is not None and until <= timezone.now():
        raise errors.GameError(gettext("The end of a suspension must be in the future."))
    user.suspended, user.suspended_until, user.suspension_reason = True, until, reason.strip()
    user.save(update_fields=["suspended", "suspended_until", "suspension_reason"])
    _record(
        moderator,
        "suspend user",
        reason,
        user=user,
        details={"until": until.isoformat() if until else None},
    )


def lift_suspension(moderator: User, user: User, reason: str) -> None:
    user.suspended, user.suspended_until, user.suspension_reason = False, None, ""
    user.save(update_fields=["suspended", "suspended_until", "suspension_reason"])
    _record(moderator, "lift suspension", reason, user=user)


def _hide(moderator: User, message: ChatMessage, reason: str) -> None:
    """Hide a message from everyone, in the moderation log; every open page's chat reloads
    (the chat's count moves), and its text is never sent to a player again (views.chat)."""
    if message.hidden:
        return
    ChatMessage.objects.filter(pk=message.pk).update(hidden=True)
    message.hidden = True
    Game.objects.filter(pk=message.game_id).update(chat_seq=F("chat_seq") + 1)
    live.forget_game(message.game_id)
    _record(moderator, "hide message", reason, game_id=message.game_id, message=message)


def hide_message(moderator: User, message_id: int, reason: str) -> ChatMessage:
    """A moderator hides a chat message, reported or not (issue 27.8): the open reports on it
    are settled as hidden."""
    if not reason.strip():
        raise errors.GameError(gettext("Give a reason: it goes in the moderation log."))
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise errors.NotFound(gettext("There is no such message."))
        if message.hidden:
            raise errors.Conflict(gettext("This message is hidden already."))
        _hide(moderator, message, reason.strip())
        Report.objects.filter(message=message, state=Report.State.OPEN).update(
            state=Report.State.HIDDEN, handled=timezone.now()
        )
    return message


def handle_report(moderator: User, report: Report, outcome: str, reason: str, until=None) -> None:
    """Hide the message, dismiss the report, or suspend the message's author (which hides the
    message too: a suspension that left the insult on the table answered only half of it)."""
    message = report.message
    with transaction.atomic():
        if outcome == Report.State.HIDDEN:
            _hide(moderator, message, reason)
        elif outcome == Report.State.SUSPENDED:
            suspend(moderator, message.author, reason, until)
            _hide(moderator, message, reason)
        elif outcome == Report.State.DISMISSED:
            _record(moderator, "dismiss report", reason, message=message)
        else:
            raise errors.GameError(gettext("Unknown outcome."))
        # One decision settles every open report on the same message.
        Report.objects.filter(message=message, state=Report.State.OPEN).update(
            state=outcome, handled=timezone.now()
        )


def record_sweep(moderator: User, reason: str) -> None:
    """A moderator ran the outbox sweep by hand (it is idempotent: it only re-queues)."""
    _record(moderator, "run outbox sweep", reason)
