"""Django's SMTP backend with a deadline for the whole conversation of one message.

`timeout` (EMAIL_TIMEOUT) bounds each step: a server that answers every step just within it
could still hold a send, and the worker slot it runs in, for minutes, past the task's soft time
limit, which then cut the send off at a random point (issue 23). Here the whole conversation,
from connecting to QUIT, ends by EMAIL_SEND_DEADLINE (settings keep it well under the task's
soft limit): each step waits at most what is left.

An error raised during DATA (after the server was given the message, before it answered) is
marked `maybe_delivered`: the message may have arrived, and the outbox counts it so
(games/notifications/queueing.py, docs/delivery.md).
"""

from __future__ import annotations

import functools
import smtplib
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.mail.backends import smtp


class SendDeadlineExceeded(TimeoutError):
    """The SMTP conversation of one message ran past EMAIL_SEND_DEADLINE."""

    def __init__(self) -> None:
        super().__init__("the SMTP conversation ran past EMAIL_SEND_DEADLINE")


class _Deadline:
    """An smtplib connection whose every step waits at most what is left of its deadline."""

    def __init__(self, *args, deadline: float, **kwargs) -> None:
        self._deadline = deadline
        super().__init__(*args, **kwargs)

    def _wait(self, step: object) -> float:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise SendDeadlineExceeded
        return min(step, left) if isinstance(step, int | float) else left

    @contextmanager
    def _step(self) -> Iterator[None]:
        if self.sock:
            self.sock.settimeout(self._wait(self.timeout))
        try:
            yield
        except (OSError, smtplib.SMTPServerDisconnected) as exc:
            # smtplib reports a read that timed out as "Connection unexpectedly closed".
            if time.monotonic() >= self._deadline and not isinstance(exc, SendDeadlineExceeded):
                raise SendDeadlineExceeded from exc
            raise

    def _get_socket(self, host, port, timeout):
        try:
            return super()._get_socket(host, port, self._wait(timeout))
        except TimeoutError as exc:
            if time.monotonic() >= self._deadline:
                raise SendDeadlineExceeded from exc
            raise

    def send(self, s) -> None:
        with self._step():
            super().send(s)

    def getreply(self):
        with self._step():
            return super().getreply()

    def data(self, msg):
        try:
            return super().data(msg)
        except smtplib.SMTPResponseException:
            raise  # the server answered with a refusal: the message did not arrive
        except BaseException as exc:  # cut off while the server held the message
            exc.maybe_delivered = True
            raise


class DeadlineSMTP(_Deadline, smtplib.SMTP):
    pass


class DeadlineSMTPSSL(_Deadline, smtplib.SMTP_SSL):
    pass


class EmailBackend(smtp.EmailBackend):
    """OPTIONS as Django's SMTP backend, plus `deadline` (seconds; EMAIL_SEND_DEADLINE)."""

    def __init__(self, *args, deadline: float | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = settings.EMAIL_SEND_DEADLINE if deadline is None else deadline

    @property
    def connection_class(self):
        # Read by open() just before connecting: the deadline starts there.
        cls = DeadlineSMTPSSL if self.use_ssl else DeadlineSMTP
        return functools.partial(cls, deadline=time.monotonic() + self.deadline)

    def _close_connection(self, connection) -> None:
        # QUIT after the message was accepted: a slow or lost answer changes nothing.
        try:
            super()._close_connection(connection)
        except OSError:
            connection.close()
