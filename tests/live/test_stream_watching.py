"""Issue 25 (an idle page makes at most one request a minute): while a seated player's game page
holds its stream, the stream process keeps the player's "watching" mark (games/live/stream.py
WATCHING), so the page need not poll for it: their "your turn" e-mail is suppressed as with the
poll (issue 14.6a); once the stream closes, it is not. A tab out of sight (h=1) marks nothing."""

from __future__ import annotations

import pytest

from games.live import cache as live
from games.models import Notification, Seat
from games.notifications import queueing as notifications
from tests.notifications.helpers import Note, notes, play_turn
from tests.support.games import client_for, seat_to_act, start_geared
from tests.support.pages import page_key
from tests.support.streams import is_game_event, stream_path
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

# The stream process marks every second (GEARTABLE_WATCHING_SECONDS / 2); this process counts a
# mark as watching for 10 s, so a loaded machine cannot make a fresh mark look stale.
STREAM_WINDOW = "2"
WINDOW = 10


def watched(game, user):
    return Seat.objects.get(game=game, user=user).watched


def the_next(game):
    mover = seat_to_act(game)
    return next(s for s in game.seats.select_related("user") if s.pk != mover.pk).user


@pytest.mark.stream_env(GEARTABLE_WATCHING_SECONDS=STREAM_WINDOW)
def test_an_open_stream_keeps_its_player_watching_until_it_closes(
    stream_process, settings, mailoutbox, alice, bob
):
    settings.GEARTABLE_WATCHING_SECONDS = WINDOW
    game = start_geared([alice, bob], target=2000)
    waiting = the_next(game)
    mover = seat_to_act(game).user
    # The mover's tab is out of sight: its stream marks nothing (opened first, so its mark
    # would be written before the other's).
    hidden = stream_process.open(stream_path(game, k=page_key(client_for(mover), game), h=1))
    hidden.event_where(is_game_event(game.version))
    stream = stream_process.open(stream_path(game, k=page_key(client_for(waiting), game)))
    stream.event_where(is_game_event(game.version))
    wait_for(lambda: watched(game, waiting) is not None, what="the stream's first mark")
    assert watched(game, mover) is None

    # Kept fresh while open (no poll anywhere in this test), then the turn e-mail is spared.
    first = watched(game, waiting)
    wait_for(lambda: watched(game, waiting) > first, what="the stream's next mark")
    mailoutbox.clear()
    play_turn(game)
    note = notes(game, Note.YOUR_TURN, user=waiting).get()
    assert note.state == Notification.State.SKIPPED
    assert note.error == "Not needed: the player had the game open."

    stream.close()
    hidden.close()
    wait_for(
        lambda: not notifications.is_watching(game.pk, waiting.pk),
        seconds=60,
        what="the mark to lapse once the stream closed",
    )
    play_turn(game)  # waiting plays; then the other, and it is waiting's turn again
    play_turn(game)
    latest = notes(game, Note.YOUR_TURN, user=waiting).order_by("-pk").first()
    assert latest.pk != note.pk
    assert latest.state == Notification.State.SENT
    assert [m for m in mailoutbox if m.to == [waiting.email]]


def test_with_a_shared_cache_the_mark_is_one_cache_write_and_no_query(
    settings, django_assert_num_queries, alice, bob
):
    settings.GEARTABLE_LIVE_CACHE = True  # as where CACHE_URL names Redis
    game = start_geared([alice, bob], target=2000)
    seat = Seat.objects.get(game=game, user=bob)
    with django_assert_num_queries(0):
        live.mark_watching([(game.pk, bob.pk, seat.pk)], 60)
    assert notifications.is_watching(game.pk, bob.pk)
    assert not notifications.is_watching(game.pk, alice.pk)
    assert watched(game, bob) is None  # the row is not written: the worker reads the cache
