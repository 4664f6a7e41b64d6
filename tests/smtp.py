"""A real SMTP server for the tests (aiosmtpd on a reserved port) and what it received."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from contextlib import suppress
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from tests.support.waiting import wait_for


def free_port() -> int:
    """A port nobody listens on now (aiosmtpd's Controller cannot take port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Inbox:
    """What the SMTP server received; `refuse` makes it answer DATA with a 550.

    `slow` (seconds) makes it a slow server: it waits that long before answering MAIL, RCPT
    and DATA, each step within the client's timeout but the whole send long; at DATA it has
    the message (it counts as received) before its late answer. `started` counts the
    conversations that reached MAIL. `slow_data` delays only the answer to DATA (after the
    message is in). `hold` (a count) makes it hold the next conversations at DATA: it has the
    message (kept in `held`, not in `messages`) and never answers, until the client is gone (a
    worker killed in the middle of sending: the message did not arrive)."""

    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    refuse: str = ""
    refused: int = 0
    slow: float = 0.0
    slow_data: float = 0.0
    started: int = 0
    hold: int = 0
    held: list[EmailMessage] = field(default_factory=list)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):  # noqa: N802
        self.started += 1
        await asyncio.sleep(self.slow)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        await asyncio.sleep(self.slow)
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        if self.refuse:
            self.refused += 1
            return self.refuse
        message = message_from_bytes(envelope.content, policy=policy.default)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        if self.hold:
            self.hold -= 1
            self.held.append(message)
            await asyncio.Event().wait()  # never answered: cancelled when the client goes
        self.messages.append(message)
        await asyncio.sleep(self.slow + self.slow_data)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in m["To"]]

    def wait_for(self, count: int, *, to: str | None = None, seconds: float = 10.0):
        """Wait until at least `count` messages (to `to`) are in; they go out in the worker."""

        def found() -> list[EmailMessage]:
            return self.to(to) if to else list(self.messages)

        wait_for(
            lambda: len(found()) >= count,
            seconds=seconds,
            what=lambda: (
                f"{count} e-mail(s){' to ' + to if to else ''}, {len(found())} in; "
                f"subjects: {[m['Subject'] for m in found()]}"
            ),
        )
        return found()


def mailers_for(port: int, *, timeout: float = 5, **options) -> dict:
    """The site's own SMTP backend (config/mail.py: with a deadline) pointed at `port`."""
    return {
        "default": {
            "BACKEND": "config.mail.EmailBackend",
            "OPTIONS": {
                "host": "127.0.0.1",
                "port": port,
                "use_tls": False,
                "timeout": timeout,
                **options,
            },
        }
    }


class HungServer:
    """A TCP server on loopback that accepts connections and never answers: a hung SMTP
    server or broker (the process is alive, its socket open, nothing comes back)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:  # closed
                return
            self.accepted.append(conn)  # kept open, never read, never answered

    def close(self) -> None:
        with suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.sock.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def hung_server():
    server = HungServer()
    try:
        yield server
    finally:
        server.close()


class SmtpServer:
    """An aiosmtpd server on one port that a test can stop and start again (an outage)."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.inbox.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp_control():
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP line
    server = SmtpServer(Inbox(port=free_port()))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_server(smtp_control):
    return smtp_control.inbox
