"""Ratings and statistics: a rating per game kind for multiplayer results, and what a player's
page shows (games played, win rate per kind and seat count, the rating's history).

The rating model is OpenSkill's Plackett-Luce (a Weng-Lin model, pinned in requirements.txt).
It is made for games of any number of players with a full ranking, which Elo and Glicko are not.
It rates a 5-player Out of Gears game as one match, not as ten pairwise duels. Each player's
rating is a mean `mu` and an uncertainty `sigma`. Pages show mu on the familiar scale around
1500, with a "?" while sigma is large (Rating.display, Rating.provisional). See docs/ratings.md.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, Kind, Rating, RatingChange, Seat, Status

MODEL = PlackettLuce()  # mu 25, sigma 25/3: OpenSkill's defaults


def places_of(result: dict) -> dict[str, int]:
    """Each seat's place (1 = first; equal scores share a place), as the end screen shows it."""
    if result.get("places"):
        return {sid: int(p) for sid, p in result["places"].items()}
    scores = result.get("scores", {})
    return {sid: 1 + sum(scores[o] > scores[sid] for o in scores) for sid in scores}


@dataclass
class _Entry:
    rating: Rating
    places: list[int]
    rated: bool = True  # False: a yardstick in a bot account's game, read and not changed


def record_game(game: Game) -> list[RatingChange]:
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
    An imported game (a record) is rated for nobody."""
    if game.imported or game.status != Status.FINISHED or not game.result:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []  # rated already: a game counts once
    places = places_of(game.result)
    seats = [s for s in game.seats.select_related("user", "replaced_user") if s.position]
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


# --- what a player's page shows ---------------------------------------------------------------


def player_stats(user=None, bot: str = "") -> list[dict]:
    """Per game kind: the rating, games played and won, win rate per seat count, and the
    rating's history as chart points. Finished games only; imported records never count."""
    if user is not None:
        seats = Seat.objects.filter(user=user) | Seat.objects.filter(replaced_user=user)
        ratings = {r.kind: r for r in Rating.objects.filter(user=user, bot="")}
    else:
        seats = Seat.objects.filter(bot=bot, replaced_user__isnull=True)
        ratings = {r.kind: r for r in Rating.objects.filter(user=None, bot=bot)}
    rows = seats.filter(game__status=Status.FINISHED, game__imported=False).values_list(
        "game_id", "game__kind", "game__seat_count", "position", "game__result", "replaced_user"
    )
    counts: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    seen: set[tuple] = set()
    for game_id, kind, seat_count, position, result, replaced in rows:
        if bot and (game_id, kind) in seen:
            continue  # two greedy bots in one game: one game played by the greedy bot
        seen.add((game_id, kind))
        won = not (user is not None and replaced == user.pk) and str(position) in (
            (result or {}).get("winners", [])
        )
        tally = counts[kind][seat_count]
        tally[0] += 1
        tally[1] += int(won)
    history = defaultdict(list)
    for change in RatingChange.objects.filter(rating__in=ratings.values()).order_by("pk"):
        history[change.rating_id].append(change)
    out = []
    for kind, label in Kind.choices:
        by_seats = counts.get(kind, {})
        played = sum(t[0] for t in by_seats.values())
        won = sum(t[1] for t in by_seats.values())
        rating = ratings.get(kind)
        if not played and rating is None:
            continue
        out.append(
            {
                "kind": kind,
                "label": label,
                "rating": rating,
                "played": played,
                "won": won,
                "win_rate": _percent(won, played),
                "by_seats": [
                    {"seats": n, "played": t[0], "won": t[1], "win_rate": _percent(t[1], t[0])}
                    for n, t in sorted(by_seats.items())
                ],
                "chart": chart(history.get(rating.pk, []) if rating else []),
            }
        )
    return out


def _percent(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


# The chart's frame, in the SVG's own units (it scales to the page's width): the plot, and the
# margins that hold the axes' labels.
WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30
CHART_POINTS = 100  # the last this many games are drawn; the table lists the last TABLE_ROWS
TABLE_ROWS = 20


def chart(changes: list[RatingChange]) -> dict | None:
    """The rating after each game, drawn on the server as an inline SVG (no script): a line
    with a dot per game (its tooltip says the date, the game and the rating), a y axis with
    three ratings and an x axis with the first and last dates; and the same as a table for
    those who do not read charts (issue 27.1)."""
    if not changes:
        return None
    changes = changes[-CHART_POINTS:]
    values = [changes[0].display_before] + [c.display_after for c in changes]
    dates = [timezone.localtime(changes[0].created)] + [
        timezone.localtime(c.created) for c in changes
    ]
    low, high = min(values), max(values)
    # Round the axis out to tens, with some room, so the line never sits on the frame.
    low, high = (low - 10) // 10 * 10, (high + 19) // 10 * 10
    span = high - low
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(values) - 1)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / span)

    points = [(LEFT + i * step, y(v)) for i, v in enumerate(values)]
    dots = [
        {
            "x": f"{x:.1f}",
            "y": f"{yy:.1f}",
            "label": f"{dates[i]:%-d %b %Y}: {values[i]}"
            + (f", place {changes[i - 1].place}" if i else ", before the first game"),
        }
        for i, (x, yy) in enumerate(points)
    ]
    ticks = [{"value": v, "y": f"{y(v):.1f}"} for v in (low, (low + high) // 2, high)]
    rows = [
        {
            "date": timezone.localtime(c.created),
            "place": c.place,
            "after": c.display_after,
            "provisional": c.provisional_after,
            "delta": c.display_after - c.display_before,
        }
        for c in reversed(changes[-TABLE_ROWS:])
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "label_x": LEFT - 6,
        "date_y": HEIGHT - BOTTOM + 18,
        "points": " ".join(f"{x:.1f},{yy:.1f}" for x, yy in points),
        "dots": dots,
        "ticks": ticks,
        "first_date": f"{dates[0]:%-d %b %Y}",
        "last_date": f"{dates[-1]:%-d %b %Y}",
        "low": min(values),
        "high": max(values),
        "games": len(changes),
        "rows": rows,
    }
