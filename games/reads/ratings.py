"""Ratings and statistics: a rating per game kind for multiplayer results, and what a player's
page shows (games played, win rate per kind and seat count, the rating's history).

The rating model is OpenSkill's Plackett-Luce (a Weng-Lin model, pinned in requirements.txt).
It is made for games of any number of players with a full ranking, which Elo and Glicko are not.
It rates a 5-player Out of Gears game as one match, not as ten pairwise duels. Each player's
rating is a mean `mu` and an uncertainty `sigma`. Pages show mu on the familiar scale around
1500, with a "?" while sigma is large (Rating.display, Rating.provisional). See docs/ratings.md.
A game is rated by games/actions/rating_changes.py; this module reads what it wrote.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import BotKind, Kind, Rating, RatingChange, Seat, Status
from games.reads.dates import day


def places_of(result: dict) -> dict[str, int]:
    """Each seat's place (1 = first; equal scores share a place), as the end screen shows it."""
    if result.get("places"):
        return {sid: int(p) for sid, p in result["places"].items()}
    scores = result.get("scores", {})
    return {sid: 1 + sum(scores[o] > scores[sid] for o in scores) for sid in scores}


def player_stats(user=None, bot: str = "") -> list[dict]:
    """Per game kind: the rating, games played and won, win rate per seat count, the
    rating's history as chart points, and the greedy bot's rating beside it (`greedy`).
    Finished games only; imported records never count."""
    greedy = Q(user=None, bot=BotKind.GREEDY)  # shown beside every rating: one query with it
    if user is not None:
        seats = Seat.objects.filter(user=user) | Seat.objects.filter(replaced_user=user)
        own = Q(user=user, bot="")
    else:
        seats = Seat.objects.filter(bot=bot, replaced_user__isnull=True)
        own = Q(user=None, bot=bot)
    mine = (user.pk, "") if user is not None else (None, bot)
    ratings, bots = {}, {}
    for rating in Rating.objects.filter(own | greedy):
        if (rating.user_id, rating.bot) == mine:
            ratings[rating.kind] = rating
        if (rating.user_id, rating.bot) == (None, BotKind.GREEDY):
            bots[rating.kind] = rating
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
                "greedy": bots.get(kind),
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
            "label": (
                _("%(date)s: %(rating)s, place %(place)s")
                if i
                else _("%(date)s: %(rating)s, before the first game")
            )
            % {
                "date": day(dates[i]),
                "rating": values[i],
                "place": changes[i - 1].place if i else 0,
            },
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
        "first_date": day(dates[0]),
        "last_date": day(dates[-1]),
        "low": min(values),
        "high": max(values),
        "games": len(changes),
        "rows": rows,
    }
