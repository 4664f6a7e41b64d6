"""What the site's frame needs on every page: how many games wait for me."""

import functools

from django.http import HttpRequest
from django.templatetags.static import static

from games.live import cache as live


@functools.cache
def _icons_url() -> str:
    return static("icons.svg")


def nav(request: HttpRequest) -> dict:
    # The icon sprite's URL, resolved once per process instead of once per card on a page.
    icons = {"icons_url": _icons_url()}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return icons

    # Lazy: a page that never renders the navigation (a fragment) never pays the query.
    return {
        **icons,
        "nav_your_turn": _Lazy(lambda: live.your_turn(user.pk)),
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
