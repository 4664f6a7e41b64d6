"""Imported records as an attacker writes them (issue 22): options the engine does not read are
dropped (a rematch link among them), a NUL anywhere is a 400, seat names pass the rules of
players' names, an import says it is one, and what one import or one replay view may cost is
bounded (moves, size, imports a day, cached replay steps)."""

from __future__ import annotations

import copy
import html
import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from games import engines
from games.actions import tables
from games.engines.geared import engine as geared
from games.models import Game, Move
from games.reads import records, replay, seating
from tests.support.games import finished_geared, finished_oog

pytestmark = pytest.mark.django_db


def renamed(record: dict, *names: str) -> dict:
    """The record with its seats renamed (a stranger's import: "Alice" is alice's username)."""
    record = copy.deepcopy(record)
    for seat, name in zip(record["seats"], names, strict=False):
        seat["name"] = name
    return record


def post_record(client, record) -> object:
    text = record if isinstance(record, str) else json.dumps(record)
    return client.post(reverse("import_record"), {"record": text})


@pytest.fixture
def record(alice, bob):
    game = finished_geared(alice, bob)
    return game, renamed(records.export(game), "Ann", "Ben")


def imports() -> int:
    return Game.objects.filter(imported=True).count()


# --- point 2: a record's options are the engine's, and never a rematch link -----------------------


def test_a_records_rematch_of_offers_no_rematch_on_another_game(client, record, alice, carol):
    finished, data = record
    data["options"].update(rematch_of=finished.pk, junk="x" * 10_000, public=True)
    client.force_login(carol)
    assert post_record(client, data).status_code == 302
    imported = Game.objects.get(imported=True)
    assert imported.options.keys() <= {"target", "names"}  # the Geared engine's (OPTIONS)
    assert seating.rematch_of(finished) is None
    # alice's end screen offers her own rematch, not carol's.
    client.force_login(alice)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert "offers a rematch" not in page
    assert "Rematch with the same players" in page


def test_a_rematch_is_linked_by_the_site_only(client, alice, bob):
    finished = finished_geared(alice, bob)
    client.force_login(alice)
    client.post(reverse("game_rematch", args=[finished.pk]))
    rematch = Game.objects.get(rematch_of=finished)
    assert "rematch_of" not in rematch.options
    client.force_login(bob)
    assert ">Alice</a> offers a rematch" in client.get(finished.get_absolute_url()).content.decode()


# --- point 3: a NUL anywhere in a decoded record -----------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["seats"][0].update(name="An\u0000n"),
        lambda r: r["options"].update(names={"1": "\u0000", "2": "Ben"}),
        lambda r: r["options"].update({"ju\u0000nk": 1}),
        lambda r: r["moves"][0]["action"].update(note=["deep", {"deeper": "\u0000"}]),
        lambda r: r["game"].update(started="\u0000"),
    ],
    ids=["seat name", "option value", "option key", "deep in an action", "informative field"],
)
def test_a_nul_anywhere_in_a_record_is_400_with_a_sentence(client, record, carol, change):
    _finished, data = record
    change(data)
    client.force_login(carol)
    text = json.dumps(data)  # "\u0000" in the JSON: a NUL once decoded
    assert "\\u0000" in text
    response = post_record(client, text)
    assert response.status_code == 400
    assert "This record contains a NUL character" in response.content.decode()
    assert imports() == 0


# --- point 8: seat names pass the rules of players' names; an import says so -------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bob", "another player's username"),
        ("BOB", "another player's username"),
        ("Greedy bot 1", "would pass for someone else"),
        ("You", "would pass for someone else"),
        ("Al\u202eice", "control or invisible characters"),
        ("x" * 31, "at most 30 characters"),
    ],
)
def test_a_seat_name_that_would_pass_for_someone_else_is_refused(
    client, record, carol, name, message
):
    _finished, data = record
    client.force_login(carol)
    response = post_record(client, renamed(data, name))
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert "Seat 1:" in body and message in body
    assert imports() == 0


def test_the_importers_own_name_and_bots_named_by_the_site(client, alice, carol):
    game = finished_oog(alice)
    data = records.export(game)
    human = next(i for i, s in enumerate(data["seats"]) if "bot" not in s)
    for i, seat in enumerate(data["seats"]):
        seat["name"] = "carol" if i == human else "bob"  # a bot seat named as a player: ignored
    client.force_login(carol)
    assert post_record(client, data).status_code == 302
    imported = Game.objects.get(imported=True)
    names = [s.name for s in imported.seats.order_by("position")]
    assert names[human] == "carol"
    assert sorted(n for i, n in enumerate(names) if i != human) == ["Greedy bot 1", "Greedy bot 2"]
    assert imported.state["names"] == {s.seat_id: s.name for s in imported.seats.all()}


def test_an_imported_game_says_it_is_an_import_on_its_pages(client, record, carol):
    _finished, data = record
    client.force_login(carol)
    post_record(client, data)
    imported = Game.objects.get(imported=True)
    for url in (
        imported.get_absolute_url(),
        reverse("game_replay", args=[imported.pk]) + "?step=3",
        reverse("game_log", args=[imported.pk]),
    ):
        page = client.get(url).content.decode()
        assert "Imported record." in page and "was not played on Geartable" in page, url
        assert "Carol imported its record" in page


# --- point 7: what one import, and one view of a replay, may cost -------------------------------


# The limits are set for the request only: the round trip of every finished game after each
# test (tests/conftest.py) replays under the real ones.


def test_a_record_of_too_many_moves_is_refused(client, record, carol):
    _finished, data = record
    client.force_login(carol)
    with override_settings(GEARTABLE_RECORD_MAX_MOVES=len(data["moves"]) - 1):
        response = post_record(client, data)
    assert response.status_code == 400
    assert f"at most {len(data['moves']) - 1:,}" in response.content.decode()
    assert imports() == 0


def test_a_record_too_large_is_refused(client, record, carol):
    _finished, data = record
    text = json.dumps(data)
    client.force_login(carol)
    with override_settings(GEARTABLE_RECORD_MAX_BYTES=len(text) - 1):
        response = post_record(client, text)
    assert response.status_code == 400
    assert f"A record is at most {(len(text) - 1) // 1000:,} kB" in response.content.decode()
    assert imports() == 0


def test_imports_are_limited_per_player_per_day(client, record, carol, bob, settings):
    _finished, data = record
    settings.GEARTABLE_RECORD_IMPORTS_PER_DAY = 2
    client.force_login(carol)
    assert [post_record(client, data).status_code for _ in range(2)] == [302, 302]
    response = post_record(client, data)
    assert response.status_code == 429
    assert "the most a player may" in response.content.decode()
    assert imports() == 2
    client.force_login(bob)  # a limit per player: bob's own are still his to make
    assert post_record(client, renamed(data, "Ann", "Bea")).status_code == 302


def test_a_replay_view_replays_at_most_a_checkpoints_worth_of_moves(
    client, alice, bob, settings, monkeypatch
):
    game = finished_geared(alice, bob, target=1000)
    steps = Move.objects.filter(game=game).count()
    assert steps >= 8  # a Geared game to 1,000 points, however the deal goes
    every = settings.GEARTABLE_REPLAY_CHECKPOINT = max(2, steps // 4)
    cache.clear()
    applied = []
    real = geared.apply
    monkeypatch.setattr(geared, "apply", lambda *a, **k: applied.append(1) or real(*a, **k))
    assert engines.engine("geared").apply is not real  # the replay goes through the spy
    client.force_login(alice)
    url = reverse("game_replay", args=[game.pk])

    def view(step: int) -> int:
        applied.clear()
        response = client.get(url, {"step": step})
        assert response.status_code == 200
        assert f"Step {step} of {steps}" in response.content.decode()
        return len(applied)

    assert view(steps - 1) <= steps  # the first view of a late step replays up to it, once
    assert view(steps - 1) < every  # then from the checkpoint before it: today, all again
    assert view(steps - every - 1) < every
    assert view(1) <= 1
    assert view(steps) == 0  # the last step is the stored final state
    # And every step still shows what replaying from move 0 gives.
    moves = replay.moves_of(game)
    for step in sorted({0, 1, every - 1, every, every + 1, steps - 1, steps}):
        assert replay.state_at(game, moves, step) == replay.replay(game, moves, step)


def test_the_migration_keeps_the_sites_rematch_links_and_drops_the_rest(alice, bob, carol):
    """games/migrations/0016: options["rematch_of"] becomes the field for the games the site
    opened, and is dropped everywhere; an imported game's is never trusted."""
    migration = importlib.import_module("games.migrations.0016_game_rematch_of")
    finished = finished_geared(alice, bob)
    rematch = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2))
    forged = tables.create_game(carol, tables.NewGame(kind="geared", seat_count=2))
    Game.objects.filter(pk=rematch.pk).update(options={"target": 1000, "rematch_of": finished.pk})
    Game.objects.filter(pk=forged.pk).update(
        imported=True, options={"target": 1000, "rematch_of": finished.pk}
    )
    migration.link_rematches(django_apps, None)
    rematch.refresh_from_db()
    forged.refresh_from_db()
    assert rematch.rematch_of_id == finished.pk and "rematch_of" not in rematch.options
    assert forged.rematch_of_id is None and "rematch_of" not in forged.options
    assert seating.rematch_of(finished) == rematch
