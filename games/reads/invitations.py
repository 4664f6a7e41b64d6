"""Who may invite whom, and when an invitation's e-mail goes out (issue 22, points 5 and 6).

An invitation is two things: the invitation in the site (a row that lets the invitee see and
join the table) and its e-mail (the same row, as an outbox entry). The first follows the rules
of the table; the e-mail also follows the invitee's: their switch for invitation e-mails, the
suppression list, their "only players I have played with" preference, and at most one invitation
e-mail from one inviter to one address in a day, however often repeated. The invitee's rules are
checked when the invitation is written (games/actions/tables.py) and again when the e-mail is sent
(games/notifications/queueing.py): preferences and the suppression list may change between the two.
When it is sent, the table must also still want it (`not_owed`): still open, the invitation still
pending. The one-a-day rule is checked once, when the invitation is written, under the inviter's
row lock (so two requests cannot both pass it); a row it leaves out is SKIPPED from the start
and never queued.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import EmailSuppression, User
from games.errors import NotFound
from games.models import Game, Invitation, Status

DEDUPLICATION = timedelta(days=1)
State = Invitation.State

# What makes a name look like a link in a mail client, which turns "evil.example/x" or
# "www.x" into one: a scheme, a slash, an @, a colon, or a dot between a word and two letters
# or digits ("J. R. Smith" and "J.R." pass, "win.example" does not).
LINK_LIKE = re.compile(r"www\.|[/\\@:]|\w\.\w{2,}", re.IGNORECASE)


def looks_like_a_link(name: str) -> bool:
    return bool(LINK_LIKE.search(unicodedata.normalize("NFKC", name)))


def inviter_name(inviter: User, *, to_player: bool) -> str:
    """How an invitation e-mail names its sender. It is user text in an e-mail a spammer would
    want to send ("Win $500: evil.example/x"), so: to an address typed in, the username only
    (its characters are few: letters, digits and . @ + - _); to a player invited by username
    or to a rematch, the display name in quotes, then the username, as the site shows them.
    A name that would look like a link is left out; if both would, the sender is "A player on
    Geartable" (the table, once opened, says who)."""
    username = "" if looks_like_a_link(inviter.username) else inviter.username
    display = inviter.display_name
    if not to_player or not display or display == inviter.username or looks_like_a_link(display):
        return username or _("A player on Geartable")
    return f"“{display}” ({username})" if username else f"“{display}”"


def played_together(a: User, b: User) -> bool:
    """Have these two sat at one table that started (either may have left it for a bot)?"""
    return (
        Game.objects.filter(started__isnull=False)
        .filter(Q(seats__user=a) | Q(seats__replaced_user=a))
        .filter(Q(seats__user=b) | Q(seats__replaced_user=b))
        .exists()
    )


def refuses(invitee: User, inviter: User) -> bool:
    """The invitee takes invitations only from players they have played with, and not this one."""
    return invitee.only_known_inviters and not played_together(invitee, inviter)


def by_address(invitation: Invitation) -> bool:
    """Made from an address typed in (once accepted, the row names the player who took it)."""
    return invitation.via == Invitation.Via.EMAIL or not invitation.user_id


def _address(invitation: Invitation) -> str:
    return invitation.email if by_address(invitation) else invitation.user.email


def email_unwanted(invitation: Invitation) -> str:
    """Why this invitation's e-mail must not go out (now), or "" if it may. Nothing in the
    answer reaches the inviter: to them an invitation is sent either way."""
    inviter = invitation.inviter
    if not by_address(invitation):
        user = invitation.user
        if user.is_bot:  # its program learns of it by the API (issue 28.4)
            return "The invited player is a bot account: no person reads its e-mail."
        if not user.is_active or not user.email or user.is_suspended:
            return "The invited player cannot be mailed."
        if not user.notify_invitation:
            return "The invited player turned invitation e-mails off."
        if refuses(user, inviter):
            return "The invited player takes invitations only from players they have played with."
    else:
        # An address typed in is an e-mail invitation whoever owns it; if a player owns it,
        # their preferences hold all the same (silently: the inviter must not learn who).
        owner = User.objects.filter(email__iexact=invitation.email, is_active=True).first()
        if owner is not None and not owner.notify_invitation:
            return "The address's owner turned invitation e-mails off."
        if owner is not None and refuses(owner, inviter):
            return "The address's owner takes invitations only from players they have played with."
    if EmailSuppression.covers(_address(invitation)):
        return "The address asked for no more invitations."
    return ""


def not_owed(invitation: Invitation) -> str:
    """Why an invitation's e-mail (or push) is no longer owed when it is about to go out, or "":
    the table was cancelled (its host left it), started or gone since it was written, or the
    invitation was taken up. One rule for both channels (games/notifications/queueing.py)."""
    if invitation.accepted:
        return "Not needed: the invitation was taken up."
    game = invitation.game
    if game.status != Status.OPEN:
        what = "cancelled" if game.status == Status.ABORTED else "no longer open"
        return f"Not needed: the table is {what}."
    return ""


def emailed_lately(invitation: Invitation) -> bool:
    """Has this inviter's invitation e-mail to this address gone out (or is one owed) in the
    last day? Then this one sends none: at most one a day, however often repeated. Call with
    the inviter's row locked (actions.base._lock_user), so that two requests do not both send."""
    address = _address(invitation)
    same = Q(email__iexact=address) | Q(user__email__iexact=address)
    if invitation.user_id:
        same |= Q(user=invitation.user_id)
    return (
        Invitation.objects.filter(
            same,
            inviter=invitation.inviter,
            created__gte=timezone.now() - DEDUPLICATION,
            state__in=[State.PENDING, State.SENDING, State.SENT],
        )
        .exclude(pk=invitation.pk)
        .exists()
    )


def waiting_for(game: Game, user: User) -> Invitation | None:
    """This visitor's own invitation to the table, not yet taken (declined or not), with its
    inviter: what the table's page tells an invitee ("alice invites you", Decline)."""
    if not user.is_authenticated:
        return None
    return (
        game.invitations.filter(user=user, accepted__isnull=True)
        .select_related("inviter")
        .order_by("-created")
        .first()
    )


def on_the_table(game: Game, viewer: User) -> list[dict]:
    """Who is invited to an open table and has not joined, for its players' page (issue 34.10):
    each as `user` (an account: its name shown) or `address` (an e-mail typed in), `state`
    ("pending" or "declined") and `inviter`. Call it for a seated player only: nobody else sees
    who is invited. An address typed in is shown whole to the player who typed it, and with
    its local part hidden to the others (they did not give it); whether an account owns it is
    never said (actions.tables.invite). One query."""
    rows = []
    seated = {s.user_id for s in game.table if s.user_id}
    invitations = (
        game.invitations.filter(accepted__isnull=True)
        .select_related("user", "inviter")
        .order_by("created", "pk")
    )
    for invitation in invitations:
        if invitation.user_id in seated:
            continue
        address = ""
        if invitation.user is None:
            address = invitation.email
            if invitation.inviter_id != viewer.pk:
                address = _masked(address)
        rows.append(
            {
                "user": invitation.user,
                "address": address,
                "state": "declined" if invitation.declined else "pending",
                "inviter": invitation.inviter,
            }
        )
    return rows


def _masked(address: str) -> str:
    """The domain of an address another player typed in, not its owner ("c…@example.com")."""
    local, _at, domain = address.rpartition("@")
    return f"{local[:1]}…@{domain}"


def email_invitation_for(user: User, token: str) -> Invitation:
    """The invitation of an e-mail's link, for this user to look at; nothing changes."""
    invitation = Invitation.objects.filter(token=token).select_related("game", "inviter").first()
    if invitation is None:
        raise NotFound(_("This invitation link is not valid."))
    if invitation.user_id is not None and invitation.user_id != user.pk:
        raise NotFound(_("This invitation is for someone else."))
    return invitation
