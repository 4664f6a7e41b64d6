"""Following a player, and no longer: a player's own list, private to them (nobody is told); no
game changes. Who one follows is read by games/reads/players.py."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts.models import Follow, User
from games.errors import Conflict, GameError
from games.reads.players import FOLLOWS_MAX


def follow(follower: User, followed: User) -> None:
    """Follow a player: private to the follower; nobody is told (no e-mail, no push, no list of
    followers). Following someone already followed changes nothing."""
    if followed.pk == follower.pk:
        raise GameError(gettext("You cannot follow yourself."))
    if Follow.objects.filter(follower=follower, followed=followed).exists():
        return
    if Follow.objects.filter(follower=follower).count() >= FOLLOWS_MAX:
        raise Conflict(
            gettext("You follow %(most)s players already: unfollow someone first.")
            % {"most": FOLLOWS_MAX}
        )
    try:
        with transaction.atomic():
            Follow.objects.create(follower=follower, followed=followed)
    except IntegrityError:
        pass  # two clicks at once: the other one made it


def unfollow(follower: User, followed: User) -> None:
    Follow.objects.filter(follower=follower, followed=followed).delete()
