"""Whatever ends a viewer's right to read ends their open streams at once (issue 25.5): the
commit that changes a password, deactivates a user or takes a seat sends an `access` event
(games/live/events.py), and the stream checks its viewer again then. The stream process here keeps
its periodic recheck at 10 minutes (tests/streams.py RECHECK), so a `revoked` seen within
seconds can only have come from that event."""

from __future__ import annotations

import pytest

from games.actions import deadlines, moves
from games.models import Game
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_key
from tests.support.streams import PROMPTLY, cookie, is_game_event, is_revoked, stream_path

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_password_change_or_a_deactivation_ends_open_streams_at_once(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    bob_client = client_for(bob)
    by_key = stream_process.open(stream_path(game, k=page_key(bob_client, game)))
    by_session = stream_process.open(stream_path(game), headers=cookie(bob_client))
    frame = stream_process.open("/events/me/", headers=cookie(bob_client))
    alice_stream = stream_process.open(stream_path(game, k=page_key(client_for(alice), game)))
    for stream in (by_key, by_session, alice_stream):
        stream.event_where(is_game_event(game.version))
    frame.event_where(lambda e: e.get("event") == "turns")

    bob.set_password("a-new-password-for-bob")
    bob.save()
    for stream in (by_key, by_session, frame):
        assert stream.event_where(is_revoked, PROMPTLY)["data"] == {"kind": "revoked"}
        assert stream.next_event(PROMPTLY).get("end")

    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert alice_stream.event_where(is_revoked, PROMPTLY)["data"] == {"kind": "revoked"}
    assert alice_stream.next_event(PROMPTLY).get("end")


def resign_the_one_not_to_act(game: Game):
    """The seated player who is not to act resigns (a bot takes the seat); their user."""
    waiting = seat_to_act(game)
    resigning = next(s for s in game.seats.all() if s.pk != waiting.pk).user
    return resigning, waiting


def test_a_resigned_player_watches_on_where_the_game_may_be_watched(stream_process, alice, bob):
    """A public game: after the resignation their stream goes on, a spectator's."""
    game = start_geared([alice, bob], target=1000, public=True)
    resigning, waiting = resign_the_one_not_to_act(game)
    their_client = client_for(resigning)
    stream = stream_process.open(
        stream_path(game, k=page_key(their_client, game)), headers=cookie(their_client)
    )
    stream.event_where(is_game_event(game.version))

    deadlines.resign(resigning, game.pk)
    game.refresh_from_db()
    stream.event_where(lambda e: is_revoked(e) or is_game_event(game.version)(e), PROMPTLY)
    # Still open, now as a spectator's (a public game): the next move reaches it.
    game.refresh_from_db()
    if game.is_active:
        seat = seat_to_act(game)
        moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    game.refresh_from_db()
    event = stream.event_where(lambda e: is_revoked(e) or is_game_event(game.version)(e))
    assert not is_revoked(event), stream.raw[-500:]
    stream.close()


def test_a_resigned_players_key_stops_answering_their_session_still_may(stream_process, alice, bob):
    """A private game: the key names a seat that is no longer theirs, so a stream by the key
    alone ends at once; by their session it goes on, since one a bot replaced may still read
    their game (access.game_reader and its live-check query)."""
    game = start_geared([alice, bob], target=1000)
    Game.objects.filter(pk=game.pk).update(watchable_by_link=False)
    resigning, _waiting = resign_the_one_not_to_act(game)
    their_client = client_for(resigning)
    key = page_key(their_client, game)
    key_only = stream_process.open(stream_path(game, k=key))
    with_session = stream_process.open(stream_path(game, k=key), headers=cookie(their_client))
    for stream in (key_only, with_session):
        stream.event_where(is_game_event(game.version))

    deadlines.resign(resigning, game.pk)
    assert key_only.event_where(is_revoked, PROMPTLY)["data"] == {"kind": "revoked"}
    assert key_only.next_event(PROMPTLY).get("end")
    game.refresh_from_db()
    event = with_session.event_where(lambda e: is_revoked(e) or is_game_event(game.version)(e))
    assert not is_revoked(event), with_session.raw[-500:]
    with_session.close()
