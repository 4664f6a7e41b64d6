"""The project's Celery app, as the fault tests' worker processes run it, with one fault hook:
FAULT_SLOW_RESOLVE=<seconds> makes every Out of Gears resolution write a line to FAULT_MARKER
and then sleep inside its transaction (the game row locked, nothing committed), so that a test
can kill the worker in the middle of a resolution rather than hope to. FAULT_SLOW_BUILD does the
same after an e-mail row is claimed and before SMTP is reached, FAULT_SLOW_SEND between the SMTP
server's answer and the commit of SENT. Production code has no hook.

Every process also writes what a test waits on instead of sleeping: "sweep-queueing" when the
beat is about to publish a sweep (also when the broker is down and the publish fails),
"sweep-done" when a worker has run one, and "task-queued <id> <name>" / "task-ran <id>" for every
other task published and run (tests/support/faults.py: Stack.pending, wait_settled, wait_idle)."""

import os
import time

import django
from celery.signals import after_task_publish, before_task_publish, task_postrun

from config.celery import app
from games.engines.outofgears import engine

django.setup()  # the e-mail hooks patch games.notifications.email, which needs the models

__all__ = ["app"]


def _mark(what: str) -> None:
    with open(os.environ["FAULT_MARKER"], "a") as marker:
        marker.write(f"{what} {os.getpid()}\n")


SWEEP = "games.tasks.sweep"


@before_task_publish.connect(weak=False)
def _sweep_queueing(sender=None, **_):
    if sender == SWEEP:
        _mark("sweep-queueing")


@after_task_publish.connect(weak=False)
def _task_queued(sender=None, headers=None, **_):
    if sender != SWEEP:
        _mark(f"task-queued {headers['id']} {sender}")


@task_postrun.connect(weak=False)
def _ran(sender=None, task_id=None, **_):
    if sender.name == SWEEP:
        _mark("sweep-done")
    else:
        _mark(f"task-ran {task_id}")


if os.environ.get("FAULT_SLOW_RESOLVE"):
    _resolve = engine.resolve

    def slow_resolve(state):
        _mark(f"resolving {state['turn']}")
        time.sleep(float(os.environ["FAULT_SLOW_RESOLVE"]))
        return _resolve(state)

    engine.resolve = slow_resolve


if os.environ.get("FAULT_SLOW_BUILD"):
    from games.notifications import email  # noqa: E402 (after django.setup)

    _context = email._context

    def slow_context(note):
        _mark("building")
        time.sleep(float(os.environ["FAULT_SLOW_BUILD"]))
        return _context(note)

    email._context = slow_context


if os.environ.get("FAULT_SLOW_SEND"):
    from games.notifications import email  # noqa: E402 (after django.setup)

    _transmit = email.transmit

    def slow_transmit(message):
        _transmit(message)
        _mark("sent")
        time.sleep(float(os.environ["FAULT_SLOW_SEND"]))

    email.transmit = slow_transmit
