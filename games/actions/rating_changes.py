"""A finished game rated (OpenSkill's Plackett-Luce, docs/ratings.md): in its game-over
transaction, under the game's lock (`base._after_change`), so that a game is rated once."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.models import Game, Rating, RatingChange, Seat, Status
from games.reads.ratings import places_of

MODEL = PlackettLuce()  # mu 25, sigma 25/3: OpenSkill's defaults


@dataclass
class _Entry:
    rating: Rating
    places: list[int]
    rated: bool = True  # False: a yardstick in a bot account's game, read and not changed


def record_game(game: Game, seats: list[Seat] | None = None) -> list[RatingChange]:
    """Rate a game that has just finished, in its game-over transaction (the game row is locked,
    so a game is rated once). Who is rated:
    - every player who sat to the end, by their place;
    - a player who resigned or was replaced after missed deadlines, as last (a game left is a
      game lost), and the bot that finished their seat not at all;
    - a bot that had its seat from the start, as its bot kind (two greedy bots in one game move
      the greedy bot's rating by the mean of their two results).
    A game with a bot account (issue 28.4) is rated for its bot accounts only: everyone else's
    rating is the yardstick they are measured by, read and left as it was, so that nobody's
    rating can be raised or lowered by a bot of their own making.
    An imported game (a record) is rated for nobody. `seats`: the game's, with their players,
    as the write path read them under the game's lock (else read here)."""
    if game.imported or game.status != Status.FINISHED or not game.result:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []  # rated already: a game counts once
    places = places_of(game.result)
    if seats is None:
        seats = game.seats.select_related("user", "replaced_user")
    seats = [s for s in seats if s.position]
    bot_accounts = {
        who.pk for s in seats if (who := s.user or s.replaced_user) is not None and who.is_bot
    }
    last = len(seats)
    entries: dict[tuple, _Entry] = {}
    for seat in sorted(seats, key=lambda s: s.position):
        if seat.replaced_user_id:
            key, place = ("user", seat.replaced_user_id), last
        elif seat.user_id:
            key, place = ("user", seat.user_id), places.get(seat.seat_id, last)
        elif seat.bot:
            key, place = ("bot", seat.bot), places.get(seat.seat_id, last)
        else:
            continue
        if key not in entries:
            rated = not bot_accounts or (key[0] == "user" and key[1] in bot_accounts)
            find = _locked_rating if rated else _yardstick
            entries[key] = _Entry(find(game.kind, *key), [], rated)
        entries[key].places.append(place)
    if len(entries) < 2:
        return []  # one entrant (a bot kind against itself): nothing to learn
    teams, ranks, owners = [], [], []
    for entry in entries.values():
        for place in entry.places:
            teams.append([MODEL.rating(mu=entry.rating.mu, sigma=entry.rating.sigma)])
            ranks.append(place)
            owners.append(entry)
    new = MODEL.rate(teams, ranks=ranks)
    updates: dict[int, list] = defaultdict(list)
    for entry, team in zip(owners, new, strict=True):
        updates[id(entry)].append(team[0])
    changes = []
    for entry in entries.values():
        if not entry.rated:
            continue
        after = updates[id(entry)]
        rating = entry.rating
        before = (rating.mu, rating.sigma)
        rating.mu = sum(r.mu for r in after) / len(after)
        rating.sigma = sum(r.sigma for r in after) / len(after)
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "games", "updated"])
        changes.append(
            RatingChange(
                rating=rating,
                game=game,
                place=min(entry.places),
                mu_before=before[0],
                sigma_before=before[1],
                mu_after=rating.mu,
                sigma_after=rating.sigma,
            )
        )
    return RatingChange.objects.bulk_create(changes)


def _locked_rating(kind: str, who: str, value) -> Rating:
    """The rating row, locked until the game-over transaction ends (two games of one player
    ending at once update it one after the other), created at OpenSkill's prior if new."""
    lookup = {"user_id": value, "bot": ""} if who == "user" else {"user": None, "bot": value}
    rating = Rating.objects.select_for_update(of=("self",)).filter(kind=kind, **lookup).first()
    if rating is None:
        prior = MODEL.rating()
        rating, _ = Rating.objects.get_or_create(
            kind=kind, **lookup, defaults={"mu": prior.mu, "sigma": prior.sigma}
        )
        rating = Rating.objects.select_for_update(of=("self",)).get(pk=rating.pk)
    return rating


def _yardstick(kind: str, who: str, value) -> Rating:
    """The rating as it stands (OpenSkill's prior if there is none), neither locked nor
    created: it measures a bot account and is not changed by the game."""
    lookup = {"user_id": value, "bot": ""} if who == "user" else {"user": None, "bot": value}
    found = Rating.objects.filter(kind=kind, **lookup).first()
    if found is not None:
        return found
    prior = MODEL.rating()
    return Rating(kind=kind, mu=prior.mu, sigma=prior.sigma, **lookup)
