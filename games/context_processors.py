"""What the site's frame needs on every page: how many games wait for me."""

import functools

from django.db import connection
from django.http import HttpRequest
from django.templatetags.static import static

from games.models import Game, Seat, Status


@functools.cache
def _icons_url() -> str:
    return static("icons.svg")


# Written out rather than compiled by the ORM on every call (a fifth of a millisecond against
# more than half of one): every page, every move's answer and every fragment counts it.
_YOUR_TURN_SQL = f"""
    SELECT count(*) FROM {Seat._meta.db_table} s
    JOIN {Game._meta.db_table} g ON g.id = s.game_id
    WHERE s.user_id = %s AND s.to_act AND g.status = %s
"""  # noqa: S608 - table names from the models; every value is a parameter


def your_turn_count(user) -> int:
    """How many games wait for this player: the nav's "Your turn · N", by the seat's
    (user, to_act) index (the live-update check counts the same, games.views._POLL_SQL)."""
    with connection.cursor() as cursor:
        cursor.execute(_YOUR_TURN_SQL, [user.pk, Status.ACTIVE.value])
        return cursor.fetchone()[0]


def nav(request: HttpRequest) -> dict:
    # The icon sprite's URL, resolved once per process instead of once per card on a page.
    icons = {"icons_url": _icons_url()}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return icons

    # Lazy: a page that never renders the navigation (a fragment) never pays the query.
    return {
        **icons,
        "nav_your_turn": _Lazy(lambda: your_turn_count(user)),
        "suspension_notice": user.suspension_message,
    }


class _Lazy:
    def __init__(self, fn):
        self.fn = fn
        self.value = None
        self.done = False

    def _get(self):
        if not self.done:
            self.value, self.done = self.fn(), True
        return self.value

    def __bool__(self):
        return bool(self._get())

    def __str__(self):
        return str(self._get())
