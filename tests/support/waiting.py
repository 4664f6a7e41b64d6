"""Waiting on something observable, with a deadline: the tests never sleep and hope.

A deadline is a quiet machine's. On a busy one (the load average above the cores, as when two
suites share a CI machine) everything a test waits on is slower by about that much, so the
time waited counts for less, divided by the load per core (`patience`): a test waits longer for
what it checks instead of failing because the machine is slow. What never comes still fails,
later. A test whose point is that something happens *soon* says so by comparing with what it
is ahead of (e.g. a backlog still undrained), never by a short deadline alone."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def patience() -> float:
    """How much slower than a quiet machine this one is now: the one-minute load average per
    core, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform: a quiet machine's deadlines
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


class Deadline:
    """`seconds` of a quiet machine's time, spent more slowly while the machine is busy."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.spent = 0.0
        self.last = time.monotonic()

    def left(self) -> float:
        """The quiet seconds left (never below 0), after counting the time since last asked."""
        now = time.monotonic()
        self.spent += (now - self.last) / patience()
        self.last = now
        return max(0.0, self.seconds - self.spent)

    def passed(self) -> bool:
        return self.left() <= 0.0


def wait_for[T](
    predicate: Callable[[], T],
    *,
    seconds: float = 10.0,
    what: str | Callable[[], str] = "the condition",
) -> T:
    """Poll until `predicate()` is truthy and return its value; fail after `seconds` (of a quiet
    machine: `Deadline`), saying `what` was awaited (a callable is asked only then: for a
    message read at the deadline)."""
    deadline = Deadline(seconds)
    while True:
        value = predicate()
        if value:
            return value
        if deadline.passed():
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {seconds} s waiting for {said}")
        time.sleep(0.05)
