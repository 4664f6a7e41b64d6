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
from tests.api.conftest import token_for
from tests.streams import ROOT
from tests.support.games import start_geared, start_oog
from tests.support.users import PASSWORD, make_user
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BOT = ROOT / "examples" / "geartable_bot.py"


def test_28_5_the_example_bot_finishes_a_game_of_each_kind(
    live_server, stream_process, settings, tmp_path, alice, django_user_model
):
    settings.GEARTABLE_API_RATE = 10_000  # the bot's calls, not the rate, are what is tested
    # Small games: Geared to 300 points (5 to 25 moves), Out of Gears as it comes. The
    # site's greedy bot moves through Celery (run at once in the tests, in the request of the
    # move before it, here the live server's).
    robo = bots.mark_as_bot(make_user(django_user_model, "robo"), "alice", PASSWORD)
    # The tables its program opened through the API (a `bot` token marks its user so).
    robo.plays_by_bot_token = True
    games = [
        start_geared([robo], bots=("greedy",), target=300),
        start_oog([robo], bots=("greedy",)),
    ]
    log_path = tmp_path / "bot.log"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "GEARTABLE_URL": live_server.url,
        "GEARTABLE_STREAM_URL": stream_process.url,
        "GEARTABLE_TOKEN": token_for(robo, scopes=("bot",)),
        "GEARTABLE_BOT_GAMES": "2",  # it stops once it has heard both games end
    }
    with open(log_path, "wb") as log:
        # -I -S: isolated, no site-packages, not the project's path: the standard library only.
        bot = subprocess.Popen(
            [sys.executable, "-I", "-S", str(BOT)], env=env, stdout=log, stderr=log
        )
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
