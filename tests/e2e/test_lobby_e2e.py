"""The lobby's "new game" form in the browser: choosing a kind of game shows only its own
settings and offers only its own numbers of players (Geared 2-6, Out of Gears 2-8, advanced
2-4); the game is created with them. Screenshots at phone and desktop sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.helpers import DESKTOP, PHONE, log_in_through_the_form, shoot
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def offered(page, name: str) -> list[str]:
    return page.eval_on_selector(
        f"select[name={name}]",
        "s => Array.from(s.options).filter(o => !o.disabled).map(o => o.value)",
    )


def test_the_new_game_form_follows_the_kind_of_game(
    live_server, new_page, problems, screenshot_dir, alice
):
    page = new_page("alice")
    log_in_through_the_form(page, live_server, "alice", PASSWORD)
    geared = page.locator("fieldset[data-kind=geared]")
    oog = page.locator("fieldset[data-kind=outofgears]")
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/lobby/")
        page.select_option("select[name=kind]", "geared")
        expect(geared).to_be_visible()
        expect(oog).to_be_hidden()
        assert offered(page, "seat_count") == ["2", "3", "4", "5", "6"]
        shoot(page, screenshot_dir / f"lobby-geared-{size_name}.png", full_page=True)
        page.select_option("select[name=kind]", "outofgears")
        expect(geared).to_be_hidden()
        expect(oog).to_be_visible()
        assert offered(page, "seat_count") == [str(n) for n in range(2, 9)]
        shoot(page, screenshot_dir / f"lobby-outofgears-{size_name}.png", full_page=True)

    page.select_option("select[name=seat_count]", "6")
    page.get_by_label("Advanced mode").check()
    assert offered(page, "seat_count") == ["2", "3", "4"]
    expect(page.locator("select[name=seat_count]")).to_have_value("4")
    page.select_option("select[name=seat_count]", "3")
    assert offered(page, "bots") == ["0", "1", "2"]
    page.select_option("select[name=bots]", "2")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(lambda url: "/games/" in url)
    game = Game.objects.get()
    assert (game.kind, game.seat_count, game.options) == ("outofgears", 3, {"advanced": True})
    assert game.seats.filter(bot="greedy").count() == 2
    problems.assert_none()
