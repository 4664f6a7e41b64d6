"""Game records in the browser: download a finished game's record from its end screen, import
it on another account, and step through the replay."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_download_a_record_and_import_it_elsewhere(
    live_server, new_page, problems, screenshot_dir, tmp_path, alice, bob, carol
):
    game = advance(start_geared([alice, bob], target=300), 900)
    page = new_page("alice", viewport=DESKTOP)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download the record").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["seed"] == game.seed and len(record["moves"]) == game.move_count

    other = new_page("carol", viewport=PHONE)
    log_in(other, live_server, "carol", PASSWORD)
    other.goto(f"{live_server.url}/games/finished/")
    other.get_by_role("link", name="Import a game record").click()
    expect(other.locator("h1")).to_have_text("Import a game record")
    shoot(other, screenshot_dir / f"import-{PHONE['width']}.png", full_page=True)
    # Its seats are named "Alice" and "Bob", usernames here: carol is told, and renames them.
    problems.expected.append("400")
    other.get_by_label("A record file (.json)").set_input_files(path)
    other.get_by_role("button", name="Replay it").click()
    expect(other.get_by_role("alert")).to_contain_text("looks like another player's username")
    for seat, name in zip(record["seats"], ("Ann", "Ben"), strict=True):
        seat["name"] = name
    renamed = tmp_path / "renamed.json"
    renamed.write_text(json.dumps(record))
    other.get_by_label("A record file (.json)").set_input_files(renamed)
    other.get_by_role("button", name="Replay it").click()
    steps = Move.objects.filter(game=game).count()
    expect(other.locator(".replay-bar strong")).to_have_text(f"Step 0 of {steps}")
    expect(other.get_by_role("note")).to_contain_text("Imported record.")
    other.get_by_role("link", name="End").click()
    expect(other.locator(".replay-bar strong")).to_have_text(f"Step {steps} of {steps}")
    imported = Game.objects.get(imported=True)
    original = Game.objects.get(pk=game.pk).state
    assert {**imported.state, "names": None} == {**original, "names": None}

    # A file that is not a record: the reason, where the form is (a 400, as it should be).
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "pgn"}')
    other.goto(f"{live_server.url}/games/import/")
    other.get_by_label("A record file (.json)").set_input_files(bad)
    other.get_by_role("button", name="Replay it").click()
    expect(other.get_by_role("alert")).to_contain_text("not a game record")
    problems.assert_none()
