"""Game records (issue 17, point 4): a finished game exports as JSON (seed, seats, options, the
move log, the engine version) and a record imports to be replayed on the site. Every finished
game of the whole test run also round-trips (tests/conftest.py's pytest_runtest_call)."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import engines
from games.actions import tables
from games.models import Game, Move, Status
from games.reads import records
from tests.support.games import finished_geared, finished_oog

pytestmark = pytest.mark.django_db


def download(client, game, **query) -> dict:
    response = client.get(reverse("game_record", args=[game.pk]), query)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def test_a_finished_geared_game_exports_everything_needed_to_replay_it(client, alice, bob):
    game = finished_geared(alice, bob)
    client.force_login(bob)
    record = download(client, game)
    assert record["format"] == "geartable-record" and record["format_version"] == 1
    assert record["engine"] == {"kind": "geared", "version": engines.VERSIONS["geared"]}
    assert record["seed"] == game.seed and record["options"] == game.options
    assert [s["name"] for s in record["seats"]] == [
        s.name for s in sorted(game.seats.all(), key=lambda s: s.position)
    ]
    assert len(record["moves"]) == Move.objects.filter(game=game).count()
    assert record["result"] == game.result
    assert records.replay_record(record).state == game.state
    # Who the players are on this site stays here: names only, no accounts or addresses.
    text = json.dumps(record)
    assert "alice@example.com" not in text and '"user' not in text


def test_an_out_of_gears_record_replays_its_resolutions(client, alice):
    game = finished_oog(alice)
    client.force_login(alice)
    record = download(client, game)
    assert any(m["kind"] == "resolve" for m in record["moves"])
    assert records.replay_record(record).state == game.state


def test_a_game_in_play_has_no_record_and_its_seed_stays_hidden(client, alice, bob):
    game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2, public=True))
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)
    client.force_login(alice)
    response = client.get(reverse("game_record", args=[game.pk]))
    assert response.status_code == 404
    game.refresh_from_db()
    assert str(game.seed) not in response.content.decode()


def test_a_private_games_record_is_not_for_strangers(client, alice, bob, carol):
    game = finished_geared(alice, bob)
    client.force_login(carol)
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("game_record", args=[game.pk])).status_code == 404
    # ...but the table's link opens it, as it opens the game.
    client.force_login(carol)
    download(client, game, token=game.join_token)


def as_stranger(record: dict) -> dict:
    """The record with seat names that pass the name rules for anyone who imports it: "Alice"
    and "Bob" are alice's and bob's usernames here (issue 22, point 8)."""
    record = copy.deepcopy(record)
    for seat, name in zip(record["seats"], ("Ann", "Ben", "Cy", "Di", "Ed", "Flo"), strict=False):
        seat["name"] = name
    return record


def without_names(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "names"}


def test_importing_a_record_replays_it_on_the_site_for_the_importer_only(client, alice, bob, carol):
    original = finished_geared(alice, bob)
    text = records.dumps(as_stranger(records.export(original)))
    client.force_login(carol)
    upload = SimpleUploadedFile("game.json", text.encode(), content_type="application/json")
    response = client.post(reverse("import_record"), {"file": upload})
    assert response.status_code == 302
    imported = Game.objects.exclude(pk=original.pk).get()
    assert response["Location"] == reverse("game_replay", args=[imported.pk]) + "?step=0"
    assert imported.imported and imported.status == Status.FINISHED
    assert without_names(imported.state) == without_names(original.state)
    assert imported.result == original.result
    assert [s.name for s in imported.seats.order_by("position")] == ["Ann", "Ben"]
    assert imported.state["names"] == {"1": "Ann", "2": "Ben"}
    steps = Move.objects.filter(game=original).count()
    end = client.get(reverse("game_replay", args=[imported.pk]), {"step": steps}).content.decode()
    assert f"Step {steps} of {steps}" in end and "won with" in end
    assert client.get(reverse("game", args=[imported.pk])).status_code == 200
    # It is carol's: not listed for anyone, not visible to bob without the link.
    client.force_login(bob)
    assert client.get(reverse("game_replay", args=[imported.pk])).status_code == 404
    assert not imported.seats.filter(user__isnull=False).exists()
    # And it exports again, to the same game.
    again = records.export(imported)
    assert records.replay_record(again).state == imported.state


def test_a_pasted_record_imports_too(client, alice, bob):
    original = finished_geared(alice, bob)
    client.force_login(alice)
    response = client.post(
        reverse("import_record"), {"record": records.dumps(as_stranger(records.export(original)))}
    )
    assert response.status_code == 302


def tampered(record: dict, change) -> str:
    record = as_stranger(record)
    change(record)
    return json.dumps(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="pgn"), "not a game record"),
        (lambda r: r.update(format_version=2), "format version 1 only"),
        (lambda r: r["engine"].update(kind="chess"), "neither Geared nor Out of Gears"),
        (lambda r: r["engine"].update(version=99), "version 99 of the rules engine"),
        (lambda r: r.update(seed="abc"), "seed must be a whole number"),
        (lambda r: r.update(seats=r["seats"][:1]), "2 to 6 seats"),
        (lambda r: r["seats"][0].update(name=""), "Seat 1 needs a name"),
        (lambda r: r["seats"][1].update(seat="7"), "Seats are listed in order"),
        (lambda r: r.update(moves=r["moves"][:-1]), "stops before the end"),
        (lambda r: r["moves"][-1].update(seq=999), "is missing or out of order"),
        (lambda r: r["moves"][0].update(action={"type": "fly"}), "Move 1 is not legal"),
        (lambda r: r["moves"][0].update(seat="9"), "Move 1 names no seat"),
        (lambda r: r["moves"][0].update(kind="resolve"), "Move 1 resolves a turn"),
        (
            lambda r: r["moves"].append({**r["moves"][-1], "seq": len(r["moves"]) + 1}),
            "after the end",
        ),
    ],
)
def test_a_bad_record_is_refused_with_the_reason_and_nothing_is_stored(
    client, alice, bob, change, message
):
    original = finished_geared(alice, bob)
    record = records.export(original)
    client.force_login(alice)
    games_before = Game.objects.count()
    response = client.post(reverse("import_record"), {"record": tampered(record, change)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == games_before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Choose a record file or paste one"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ("[" * 40_000 + "]" * 40_000, "too large"),  # pasted: the site's 64 kB form limit
    ],
)
def test_what_is_not_a_record_gets_a_sentence(client, alice, text, message):
    client.force_login(alice)
    response = client.post(reverse("import_record"), {"record": text})
    assert response.status_code == (413 if message == "too large" else 400)
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_the_import_page_asks_for_a_file_and_needs_a_log_in(client, alice):
    assert client.get(reverse("import_record")).status_code == 302
    client.force_login(alice)
    page = client.get(reverse("import_record")).content.decode()
    assert "<h1>Import a game record</h1>" in page and 'type="file"' in page


def test_a_record_nested_thousands_deep_is_not_json_to_us():
    with pytest.raises(records.RecordError, match="not valid JSON"):
        records.loads("[" * 100_000 + "]" * 100_000)


def test_a_large_record_file_uploads_beyond_the_form_limit(client, alice, bob):
    """Files are not held to the 64 kB of a form field: a long game's record still imports."""
    original = finished_geared(alice, bob)
    text = records.dumps(as_stranger(records.export(original))) + " " * 100_000
    client.force_login(alice)
    upload = SimpleUploadedFile("game.json", text.encode(), content_type="application/json")
    assert client.post(reverse("import_record"), {"file": upload}).status_code == 302
