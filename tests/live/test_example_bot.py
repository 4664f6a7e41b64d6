"""Issue 28.5: the example bot (examples/geartable_bot.py), run as a real process against a
live server (the API) and a real stream process (its account stream), finishes a Geared game
and an Out of Gears game against the site's greedy bot, as a bot account of alice's with a
`bot` token (issue 28.4)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from accounts import bots
from games.models import Game, Move, Status
from tests.streams import ROOT, start_stream_process
from tests.support.api import token_for
from tests.support.games import start_geared, start_oog
from tests.support.users import PASSWORD, make_user
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BOT = ROOT / "examples" / "geartable_bot.py"


def _robo(django_user_model):
    robo = bots.mark_as_bot(make_user(django_user_model, "robo"), "alice", PASSWORD)
    # The tables its program opened through the API (a `bot` token marks its user so).
    robo.plays_by_bot_token = True
    return robo


def _run_bot(robo, url: str, stream_url: str, log, games: int) -> subprocess.Popen:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "GEARTABLE_URL": url,
        "GEARTABLE_STREAM_URL": stream_url,
        "GEARTABLE_TOKEN": token_for(robo, scopes=("bot",)),
        "GEARTABLE_BOT_GAMES": str(games),  # it stops once it has heard so many games end
    }
    # -I -S: isolated, no site-packages, not the project's path: the standard library only.
    return subprocess.Popen([sys.executable, "-I", "-S", str(BOT)], env=env, stdout=log, stderr=log)


def _robo_moves(game, robo) -> int:
    return Move.objects.filter(game=game, seat__user=robo, kind=Move.Kind.ACTION).count()


def test_28_5_the_example_bot_reconnects_when_its_stream_process_dies_and_misses_no_turn(
    live_server, settings, tmp_path, alice, django_user_model
):
    """The stream process is killed (-9) mid-game and another started on its port a moment
    later: the bot sees its stream lost, reconnects with its backoff, and the new stream's
    first lines (a yourTurn for every game waiting) bring it back to the game, which it
    finishes."""
    settings.GEARTABLE_API_RATE = 10_000
    robo = _robo(django_user_model)
    game = start_geared([robo], bots=("greedy",), target=500)
    first, server, _ = start_stream_process(tmp_path, name="stream-first")
    settings.GEARTABLE_STREAM_URL = server.url  # the writer's NOTIFY on (events.enabled)
    log_path = tmp_path / "bot.log"
    processes = [first]
    with open(log_path, "wb") as log:
        bot = _run_bot(robo, live_server.url, server.url, log, games=1)
    said = lambda: log_path.read_text()[-3000:]  # noqa: E731
    try:
        wait_for(lambda: _robo_moves(game, robo) >= 1, seconds=60, what=lambda: said())
        first.kill()
        first.wait()
        game.refresh_from_db()
        assert game.status == Status.ACTIVE, "the game outlived the first stream"
        before = _robo_moves(game, robo)
        wait_for(lambda: "reconnecting in about" in said(), seconds=30, what=lambda: said())
        second, _, _ = start_stream_process(tmp_path, name="stream-second", port=server.port)
        processes.append(second)
        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == Status.FINISHED,
            seconds=180,
            what=lambda: "the game to finish after the restart; the bot said:\n" + said(),
        )
        assert bot.wait(timeout=60) == 0, said()
    finally:
        for process in (bot, *processes):
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
    assert _robo_moves(game, robo) > before, "it played on after reconnecting"
    text = log_path.read_text()
    assert text.count("following the account stream") >= 2, text
    assert f"game {game.pk} (geared) is over" in text and "Traceback" not in text, text


def test_28_5_the_example_bot_finishes_a_game_of_each_kind(
    live_server, stream_process, settings, tmp_path, alice, django_user_model
):
    settings.GEARTABLE_API_RATE = 10_000  # the bot's calls, not the rate, are what is tested
    # Small games: Geared to 300 points (5 to 25 moves), Out of Gears as it comes. The
    # site's greedy bot moves through Celery (run at once in the tests, in the request of the
    # move before it, here the live server's).
    robo = _robo(django_user_model)
    games = [
        start_geared([robo], bots=("greedy",), target=300),
        start_oog([robo], bots=("greedy",)),
    ]
    log_path = tmp_path / "bot.log"
    with open(log_path, "wb") as log:
        bot = _run_bot(robo, live_server.url, stream_process.url, log, games=2)
    try:
        wait_for(
            lambda: (
                not Game.objects.filter(pk__in=[g.pk for g in games])
                .exclude(status=Status.FINISHED)
                .exists()
            ),
            seconds=180,
            what=lambda: "both games to finish; the bot said:\n" + log_path.read_text()[-3000:],
        )
        # Then it hears both end on its stream (each gameOver line a few ms after the commit).
        assert bot.wait(timeout=60) == 0, log_path.read_text()
    finally:
        if bot.poll() is None:
            bot.terminate()
            bot.wait(timeout=30)
    said = log_path.read_text()
    for game in games:
        game.refresh_from_db()
        seat = game.seats.get(user=robo)
        assert not seat.is_bot and seat.replaced_user_id is None  # robo's seat, played by it
        assert Move.objects.filter(game=game, seat=seat, kind=Move.Kind.ACTION).exists(), said
        assert f"game {game.pk} ({game.kind}) is over" in said, said
    assert "refused" not in said and "Traceback" not in said, said
