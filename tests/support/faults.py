"""The fault tests' stack: real worker and beat processes (`celery -A tests.faults.worker_app`)
on a real broker, the test's PostgreSQL database and a real SMTP server, that a test can kill
(-9, the whole process group), stop and start again.

- `broker`: Redis (a private redis-server on a free port, so that a test can stop it for real:
  it keeps nothing on disk, so its queues are lost like a crashed broker's) or RabbitMQ (the
  machine's, on a queue of the test's own).
- `stack`: starts workers and a beat with short outbox settings (a sweep every second, grace
  periods of two seconds), and points this process's Celery app at the same broker and queue,
  so that the views called here queue their tasks where the workers take them. E-mails go to
  a queue of their own (`<queue>-mail`), and each "worker" is two processes in one process
  group, as in production: one for turns and bots, one (`-c 1`) for e-mail, so that a slow or
  hung SMTP server never holds the slot a resolution needs (issue 23).

The processes write markers (tests/faults/worker_app.py) that a test waits on instead of
sleeping: the beat's sweeps queued (or failing to be, with the broker down) and run, and every
other task queued and run (`Stack.wait_settled`: nothing is left that could send again;
`Stack.wait_idle`: nothing is left that could still move a game).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from collections import Counter
from contextlib import suppress
from pathlib import Path

import kombu.pools
import pytest
from amqp.exceptions import ChannelError
from celery.signals import after_task_publish
from django.db import connection

from config.celery import app as celery_app
from tests.smtp import free_port
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
RABBITMQ_URL = os.environ.get("CELERY_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")

# Short outbox settings for the processes and for this one (seconds).
OUTBOX = {
    "OUTBOX_SWEEP_INTERVAL": 1,
    "OUTBOX_GAME_GRACE": 2,
    "OUTBOX_MAIL_GRACE": 2,
    "OUTBOX_RETRY_BASE": 1,
    "OUTBOX_RETRY_MAX": 2,
}
TIME_LIMIT = 10  # the tasks' hard limit in the workers (and Redis's visibility timeout + 30 s)
# A claim is taken back only once its worker must be dead: above the hard limit, as in
# production (config/settings.py refuses less). At 4 s a busy machine's slow send was taken
# over by the sweep while its worker still sent it, and the player got the e-mail twice.
OUTBOX["OUTBOX_CLAIM_TIMEOUT"] = TIME_LIMIT + 2
# The e-mail tasks, routed to the stack's mail queue (settings: CELERY_MAIL_QUEUE).
MAIL_TASK_NAMES = (
    "games.tasks.send_notification",
    "games.tasks.send_invitation",
    "games.tasks.send_digest",
    "games.tasks.send_account_mail",
)


def wait_port(port: int, seconds: float = 10.0) -> None:
    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return False
        return True

    wait_for(listening, seconds=seconds, what=f"a server on port {port}")


class PrivateRedis:
    """A redis-server of the test's own, which the test may stop (kill -9) and start again."""

    kind = "redis"

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                *("--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--dir", str(self.directory)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class RabbitMQ:
    """The machine's RabbitMQ; the test's queue is deleted afterwards."""

    kind = "amqp"
    url = RABBITMQ_URL

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pytest.fail("these tests do not stop the machine's RabbitMQ")


@pytest.fixture(params=["redis", "amqp"])
def broker(request, tmp_path):
    if request.param == "redis":
        server = PrivateRedis(tmp_path)
        server.start()
        yield server
        server.stop()
    else:
        yield RabbitMQ()


class Stack:
    """Worker and beat processes of the real code, each in its own process group."""

    def __init__(self, broker, queue: str, inbox, directory: Path) -> None:
        self.broker, self.queue, self.inbox, self.directory = broker, queue, inbox, directory
        self.mail_queue = f"{queue}-mail"
        self.marker = directory / "marker"
        self.marker.touch()
        self.processes: list[subprocess.Popen] = []
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.faults.worker_settings",
            "PYTHONPATH": str(ROOT),
            "FAULT_DATABASE": connection.settings_dict["NAME"],
            "FAULT_BROKER_URL": broker.url,
            "FAULT_QUEUE": queue,
            "CELERY_MAIL_QUEUE": f"{queue}-mail",
            "FAULT_SMTP_PORT": str(inbox.port),
            "FAULT_MARKER": str(self.marker),
            "CELERY_TASK_TIME_LIMIT": str(TIME_LIMIT),
            **{name: str(value) for name, value in OUTBOX.items()},
        }

    def _start(self, name: str, commands: list[list[str]], env: dict) -> subprocess.Popen:
        """Start the Celery commands, each supervised as production runs it (systemd's
        Restart=always): a Celery worker on Redis exits ("Unrecoverable error") on some broker
        failures, and is started again. All in one process group: kill -9 of the group kills
        them all, supervisors included."""
        log = open(self.directory / f"{name}.log", "ab")  # noqa: SIM115 (kept by the process)
        celery = [sys.executable, "-m", "celery", "-A", "tests.faults.worker_app"]
        loops = " & ".join(
            f"while :; do {shlex.join(celery + args)}; sleep 0.5; done" for args in commands
        )
        process = subprocess.Popen(
            [shutil.which("bash") or "/bin/bash", "-c", f"{loops} & wait"],
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill -9 takes its children too
        )
        self.processes.append(process)
        return process

    def worker(self, concurrency: int = 2, **env) -> subprocess.Popen:
        """A worker for turns and bots (`concurrency` slots) and its e-mail worker (one slot),
        in one process group: what `kill` stops together."""
        n = len(self.processes)
        common = ["-P", "prefork", "-l", "INFO", "-O", "fair", "--without-mingle"]
        common.append("--without-gossip")
        return self._start(
            f"worker{n}",
            [
                [
                    *("worker", "-Q", self.queue, "-c", str(concurrency)),
                    *("-n", f"fault{n}-{uuid.uuid4().hex[:6]}@%h", *common),
                ],
                [
                    *("worker", "-Q", self.mail_queue, "-c", "1"),
                    *("-n", f"mail{n}-{uuid.uuid4().hex[:6]}@%h", *common),
                ],
            ],
            {key: str(value) for key, value in env.items()},
        )

    def beat(self) -> subprocess.Popen:
        return self._start(
            "beat",
            [["beat", "-s", str(self.directory / "beat-schedule"), "-l", "INFO"]],
            {},
        )

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """kill -9 the process group: the worker and its pool children die at once."""
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def queued(self, queue: str | None = None) -> int:
        """Messages waiting in the test's queue (not those a worker has taken)."""
        with celery_app.connection_for_write() as conn:
            try:
                declared = conn.default_channel.queue_declare(queue or self.queue, passive=True)
            except ChannelError:  # Redis: an empty queue does not exist
                return 0
            return declared.message_count

    def markers(self, what: str) -> list[str]:
        return [line for line in self.marker.read_text().splitlines() if line.startswith(what)]

    def wait_marker(self, what: str, count: int = 1, seconds: float = 20.0) -> None:
        wait_for(
            lambda: len(self.markers(what)) >= count,
            seconds=seconds,
            what=lambda: f"{count} '{what}' marker(s)\n{self.logs()}",
        )

    def wait_failed_sweep(self, seconds: float = 20.0) -> None:
        """With the broker down: wait until the beat has tried to queue a sweep and failed. The
        beat publishes one sweep at a time, so its second attempt from now begins only after
        the first (made with the broker already down) is over."""
        self.wait_marker("sweep-queueing", len(self.markers("sweep-queueing")) + 2, seconds)

    def pending(self, names=None) -> int:
        """Tasks (other than sweeps; of the given names only, if any) queued by this process or
        the stack's that no worker has run yet."""
        queued = Counter(
            fields[1]
            for fields in map(str.split, self.markers("task-queued"))
            if names is None or fields[2] in names
        )
        ran = Counter(line.split()[1] for line in self.markers("task-ran"))
        return sum(max(0, n - ran[task_id]) for task_id, n in queued.items())

    def mail_pending(self) -> int:
        return self.pending(MAIL_TASK_NAMES)

    def wait_settled(self, seconds: float = 30.0) -> None:
        """Wait until whatever could still send an e-mail has run: two more sweeps (so one
        begun after this call), and every e-mail task queued so far, by them or before. Only
        where no message was lost (no broker stopped, no worker killed since the start)."""
        self.wait_marker("sweep-done", len(self.markers("sweep-done")) + 2, seconds)
        wait_for(
            lambda: self.mail_pending() == 0,
            seconds=seconds,
            what=lambda: f"{self.mail_pending()} e-mail task(s) to run\n{self.logs()}",
        )

    def wait_idle(self, seconds: float = 30.0) -> None:
        """Before a fault: wait until nothing queued so far can still act. Two more sweeps
        (one begun after this call, so it saw the games as they are now and queued no
        catch-up for a step already made), and every task queued, by them or before, has
        run: a catch-up a worker holds must not play a bot's turn after the fault begins."""
        self.wait_marker("sweep-done", len(self.markers("sweep-done")) + 2, seconds)
        wait_for(
            lambda: self.pending() == 0,
            seconds=seconds,
            what=lambda: f"{self.pending()} task(s) to run\n{self.logs()}",
        )

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted(self.directory.glob("*.log"))
        )

    def stop_all(self) -> None:
        for process in self.processes:
            self.kill(process)


def _publish_with_time_limits(hard: int | None) -> None:
    """Celery copies a task's time limits into each message it publishes, and the worker
    applies those: this process's tasks must carry the stack's limits (TIME_LIMIT and 3/4 of
    it, as config/settings.py derives them), not the test settings' 60 s. None: back to the
    tasks' own."""
    for task in celery_app.tasks.values():
        for name in ("time_limit", "soft_time_limit", "_exec_options"):
            task.__dict__.pop(name, None)
        if hard is not None:
            task.time_limit, task.soft_time_limit = hard, hard * 3 // 4
            task._exec_options = None


def reset_publisher() -> None:
    """Drop this process's broker connections, so the next task goes to the current URL."""
    kombu.pools.reset()  # closes and forgets every pooled connection (kept by URL)
    celery_app._after_fork()


@pytest.fixture
def stack(broker, smtp_server, settings, transactional_db, tmp_path):
    """Real processes against the test database, and this process publishing to them. The
    views called here run the real code: tasks are queued on commit to the real broker."""
    queue = f"geartable-fault-{uuid.uuid4().hex[:12]}"
    stack = Stack(broker, queue, smtp_server, tmp_path)
    saved = {
        key: celery_app.conf[key]
        for key in ("broker_url", "task_default_queue", "task_always_eager", "task_routes")
    }
    for name, value in OUTBOX.items():
        setattr(settings, name, value)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.update(
        broker_url=broker.url,
        task_default_queue=queue,
        task_always_eager=False,
        task_routes={name: {"queue": stack.mail_queue} for name in MAIL_TASK_NAMES},
    )
    reset_publisher()
    _publish_with_time_limits(TIME_LIMIT)

    def mark_queued(sender=None, headers=None, **_):
        with stack.marker.open("a") as marker:
            marker.write(f"task-queued {headers['id']} {sender} {os.getpid()}\n")

    after_task_publish.connect(mark_queued, weak=False)
    try:
        yield stack
    finally:
        after_task_publish.disconnect(mark_queued)
        _publish_with_time_limits(None)
        stack.stop_all()
        if broker.kind == "amqp":
            with suppress(Exception), celery_app.connection_for_write() as conn:
                conn.default_channel.queue_delete(queue)
                conn.default_channel.queue_delete(stack.mail_queue)
        celery_app.conf.update(saved)
        reset_publisher()
