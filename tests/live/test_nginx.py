"""The README's nginx configuration, as the README writes it, in front of the web server (the
test's live server, standing for gunicorn) and a real stream process: the pages reach the web
upstream, the four stream paths reach the stream process, and what a commit sends arrives
through the proxy at once (its buffering off), on a page's event stream and on the API's."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.notifications.helpers import play_turn
from tests.smtp import free_port
from tests.streams import ROOT, Stream
from tests.support.api import token_for
from tests.support.games import client_for, seat_to_act, start_geared
from tests.support.streams import cookie
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def readme_nginx() -> str:
    """The README's one ```nginx block."""
    (block,) = re.findall(r"```nginx\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return block


def configuration(tmp: Path, port: int, web: int, events: int) -> str:
    """The README's block with this test's ports (and plain HTTP on loopback instead of TLS),
    inside the smallest main configuration nginx runs with from a directory of its own."""
    block = readme_nginx()
    for theirs, ours in (
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{web};"),
        ("server 127.0.0.1:8001;", f"server 127.0.0.1:{events};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{port};"),
    ):
        assert theirs in block, f"the README's nginx block no longer says {theirs!r}"
        block = block.replace(theirs, ours)
    temp = "\n    ".join(
        f"{name}_temp_path {tmp / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""
{"user root;" if os.geteuid() == 0 else ""}
daemon off;
worker_processes 1;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    {temp}
{block}
}}
"""


@pytest.fixture
def proxy(live_server, stream_process, tmp_path):
    """nginx on a free port, proxying to the live server and the stream process; its port."""
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        configuration(tmp_path, port, urlsplit(live_server.url).port, stream_process.port)
    )
    log = tmp_path / "error.log"
    process = subprocess.Popen(
        [NGINX, "-p", str(tmp_path), "-c", str(conf), "-e", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )

    def answering() -> bool:
        if process.poll() is not None:
            pytest.fail("nginx stopped at start:\n" + (log.read_text() if log.exists() else ""))
        try:
            Stream(port, "/healthz/", {}, timeout=2).close()
        except OSError:
            return False
        return True

    try:
        wait_for(answering, seconds=20, what="nginx to answer")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_readme_proxy_sends_pages_to_the_web_and_streams_to_the_stream_process(
    proxy, live_server, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    # A page: the web upstream (the stream process serves no page).
    url = f"http://127.0.0.1:{proxy}{game.get_absolute_url()}"
    request = urllib.request.Request(url, headers=cookie(client_for(alice)))
    with urllib.request.urlopen(request) as page:  # noqa: S310 - our own http:// on loopback
        assert page.status == 200 and 'id="game"' in page.read().decode()
    waiting = seat_to_act(game).user
    other = bob if waiting == alice else alice
    # The streams: the site's frame (by the session) and the API's account stream (by a token)
    # of the player who is not to act; each says nothing until the move makes it their turn.
    frame = Stream(proxy, "/events/me/", cookie(client_for(other)), timeout=20)
    account = Stream(
        proxy, "/api/v1/stream/account", {"Authorization": f"Bearer {token_for(other)}"}, 20
    )
    game_stream = Stream(
        proxy,
        f"/api/v1/games/{game.pk}/stream",
        {"Authorization": f"Bearer {token_for(other)}"},
        20,
    )
    try:
        assert frame.status == 200 and frame.headers["content-type"] == "text/event-stream"
        assert account.status == 200 and game_stream.status == 200
        assert game_stream.next_line()["version"] == game.version  # the game, as GET says it
        turns = frame.event_where(lambda event: event.get("event") == "turns")
        assert turns["data"]["your_turn"] == 0
        play_turn(game)
        # Through the proxy at once: the next lines come from the move's commit.
        assert game_stream.next_line()["version"] == game.version
        assert account.line_where(lambda line: line["type"] == "yourTurn")["game"] == {
            "id": game.pk,
            "kind": "geared",
            "version": game.version,
        }
        turns = frame.event_where(lambda event: event.get("event") == "turns")
        assert turns["data"] == {"kind": "turns", "your_turn": 1}
    finally:
        for stream in (frame, account, game_stream):
            stream.close()
