"""Waiting on something observable, with a deadline: the tests never sleep and hope."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for[T](
    predicate: Callable[[], T],
    *,
    seconds: float = 10.0,
    what: str | Callable[[], str] = "the condition",
) -> T:
    """Poll until `predicate()` is truthy and return its value; fail after `seconds`, saying
    `what` was awaited (a callable is asked only then: for a message read at the deadline)."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {seconds} s waiting for {said}")
        time.sleep(0.05)
