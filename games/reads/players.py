"""Players among themselves (issue 27): a player's public list of games, following a player,
and whom to offer first when inviting (the people you played with, then the ones you follow)."""

from __future__ import annotations

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _

from accounts.models import Follow, User
from games.models import Seat, Status, table_seats
from games.reads.ratings import places_of

GAMES_PER_PAGE = 15
LAST_PAGE = 200  # deeper than anyone reads; a bound on the offset a URL may ask for
FOLLOWS_MAX = 500  # a bound on one player's list, so that no one fills the table
SUGGESTED = 12


# --- a player's games ---------------------------------------------------------------------------


def has_played(user: User) -> bool:
    """Has this account ever sat at a table, or been replaced at one? (An account that has
    cannot become a bot: accounts/bots.py asks through accounts.game_side.)"""
    return Seat.objects.filter(Q(user=user) | Q(replaced_user=user)).exists()


def recent_games(player: User, viewer, page: int) -> tuple[list[dict], bool]:
    """One page of the player's games in play and finished, newest first, and whether there are
    older ones. Only what the viewer may see: a public game, or one the viewer sits (or sat) in
    themselves; never an imported record (its names are not accounts). Two queries, whatever the
    page or the number of games: the seats with their games, then those games' tables."""
    seats = Seat.objects.filter(
        Q(user=player) | Q(replaced_user=player),
        game__status__in=[Status.ACTIVE, Status.FINISHED],
        game__imported=False,
    )
    visible = Q(game__public=True)
    if viewer is not None and viewer.is_authenticated:
        mine = Seat.objects.filter(game=OuterRef("game_id")).filter(
            Q(user=viewer) | Q(replaced_user=viewer)
        )
        visible |= Q(Exists(mine))
    start = (page - 1) * GAMES_PER_PAGE
    rows = list(
        seats.filter(visible)
        .select_related("game")
        .defer("game__state")
        .order_by("-game__updated", "-game_id")[start : start + GAMES_PER_PAGE + 1]
    )
    more = len(rows) > GAMES_PER_PAGE
    rows = rows[:GAMES_PER_PAGE]
    _with_tables([s.game for s in rows])
    return [_game_row(seat, player) for seat in rows], more


def _with_tables(games: list) -> None:
    """Each game's `table`, all in one query. (Not prefetch_related_objects: it asks
    `hasattr(game, "table")`, which reads a functools.cached_property: a query per game.)"""
    tables: dict[int, list[Seat]] = {game.pk: [] for game in games}
    if tables:
        for seat in table_seats().filter(game_id__in=tables):
            tables[seat.game_id].append(seat)
    for game in games:
        game.table = tables[game.pk]


def _game_row(seat: Seat, player: User) -> dict:
    game = seat.game
    others = [s for s in game.table if s.pk != seat.pk]
    row = {
        "game": game,
        "finished": game.status == Status.FINISHED,
        "others": others,
        "result": _("in play"),
        "won": False,
    }
    if row["finished"] and game.result:
        if seat.replaced_user_id == player.pk:
            row["result"] = _("left the game")
        else:
            place = places_of(game.result).get(seat.seat_id)
            row["won"] = seat.seat_id in game.result.get("winners", [])
            if place is not None:
                count = len(game.table)
                won, lost = _("%(place)s of %(count)s · won"), _("%(place)s of %(count)s")
                said = won if row["won"] else lost
                row["result"] = said % {"place": ordinal(place), "count": count}
    return row


# --- following ----------------------------------------------------------------------------------


def followed_by(follower: User) -> Exists:
    """Whether `follower` follows the user of the row (a filter, or an annotation: a player's
    page reads it with the player)."""
    return Exists(Follow.objects.filter(follower=follower, followed=OuterRef("pk")))


def followed_players(user: User) -> list[User]:
    """The players this user follows, by name (their profile's list; one query)."""
    return list(
        User.objects.filter(is_active=True)
        .filter(followed_by(user))
        .only("username", "display_name", "is_active")
        .order_by("username")[:FOLLOWS_MAX]
    )


# --- whom to invite -------------------------------------------------------------------------------


def invite_suggestions(user: User) -> list[User]:
    """Whom the invite boxes offer: the people this user played with, the most recent table
    first, then the ones they follow; active accounts only, at most SUGGESTED. Two queries."""
    played = list(
        User.objects.filter(is_active=True)
        .exclude(pk=user.pk)
        .filter(seats__game__imported=False, seats__game__seats__user=user)
        .annotate(last=Max("seats__game__created"))
        .only("username", "display_name", "is_active")
        .order_by("-last", "username")[:SUGGESTED]
    )
    chosen = {u.pk for u in played}
    # Asked even when the first list is full, so that the count of queries never depends on it.
    followed = (
        User.objects.filter(is_active=True)
        .exclude(pk__in=chosen | {user.pk})
        .filter(followed_by(user))
        .only("username", "display_name", "is_active")
        .order_by("username")[:SUGGESTED]
    )
    return (played + list(followed))[:SUGGESTED]
