"""The turn bench's probe (bench/turn_bench.py): when the web process published a task, when
the Celery worker received it and ran it, written as JSON lines (wall-clock `time.time()`, which
every process of the machine shares) to the file named by BENCH_PROBE_FILE.

Loaded only by the bench: by the Celery worker with `--include bench.turn_probe`, and by
gunicorn as its configuration module (`-c python:bench.turn_probe`, whose import connects the
publisher's signal before the workers fork). Nothing of the site imports it.
"""

from __future__ import annotations

import json
import os
import time

from celery import signals

_PATH = os.environ.get("BENCH_PROBE_FILE")


def _write(hop: str, name: str, args) -> None:
    if not _PATH or name != "games.tasks.resolve_turn":
        return
    line = json.dumps({"t": time.time(), "hop": hop, "args": list(args or ())}) + "\n"
    # One write of one short line in append mode: lines of several processes never interleave.
    with open(_PATH, "a") as fh:
        fh.write(line)


@signals.before_task_publish.connect(weak=False)
def _publishing(sender=None, body=None, **_):
    _write("publish", sender, body[0] if isinstance(body, tuple | list) else ())


@signals.after_task_publish.connect(weak=False)
def _published(sender=None, body=None, **_):
    _write("published", sender, body[0] if isinstance(body, tuple | list) else ())


@signals.task_received.connect(weak=False)
def _received(request=None, **_):
    _write("received", request.name, request.args)


@signals.task_prerun.connect(weak=False)
def _prerun(task=None, args=None, **_):
    _write("prerun", task.name, args)


@signals.task_postrun.connect(weak=False)
def _postrun(task=None, args=None, **_):
    _write("postrun", task.name, args)
