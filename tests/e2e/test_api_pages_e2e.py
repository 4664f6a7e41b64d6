"""Issue 28.3 in a browser: the profile's API tokens (made through the form, shown once, listed
by their key, revoked) and the API's docs page, at 390 px and 1280 px: no serious accessibility
problem, no console error, no CSP violation. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import ApiToken
from games.actions import tables
from games.api.calls import api
from games.models import Kind
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.browser import axe_problems
from tests.support.users import PASSWORD, make_user

SCHEMA_PATHS_CALLS = [
    (path, method)
    for path, methods in api.get_openapi_schema()["paths"].items()
    for method in methods
]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_28_3_tokens_on_the_profile_and_the_api_docs_page(
    live_server, new_page, problems, screenshot_dir, alice
):
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    found = []
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{reverse('profile')}#api-tokens")
        form = page.locator("#token-form")
        form.get_by_label("Name").fill(f"bot {size_name}")
        form.get_by_label("Play: moves and chat messages").check()
        form.get_by_role("button", name="Create a token").click()
        expect(page.locator("h1")).to_have_text("Your new API token")
        token = page.locator("#new-token").input_value()
        assert token.startswith("gt_") and len(token) == 59
        found += [f"created, {size_name}: {p}" for p in axe_problems(page)]
        shoot(page, screenshot_dir / f"api-token-created-{size_name}.png", full_page=True)

        page.get_by_role("link", name="Back to your profile").click()
        listed = page.locator("#token-list li", has_text=f"bot {size_name}")
        expect(listed).to_contain_text(token[:16])
        assert token[16:] not in page.content()  # shown once: the secret never again
        found += [f"profile, {size_name}: {p}" for p in axe_problems(page)]
        shoot(page.locator("#api-tokens"), screenshot_dir / f"api-tokens-{size_name}.png")

        page.goto(f"{live_server.url}{reverse('api_docs')}")
        expect(page.locator("section.api-call")).to_have_count(len(SCHEMA_PATHS_CALLS))
        found += [f"docs, {size_name}: {p}" for p in axe_problems(page)]
        shoot(page, screenshot_dir / f"api-docs-{size_name}.png", full_page=True)
    page.goto(f"{live_server.url}{reverse('profile')}#api-tokens")
    page.locator("#token-list li", has_text="bot 390").get_by_role("button").click()
    expect(page.locator("#token-list li")).to_have_count(1)
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["bot 1280"]
    assert not found, "axe found:\n" + "\n".join(found)
    problems.assert_none()


def test_28_4_a_bot_account_marked_on_its_profile_and_shown_as_a_bot(
    live_server, new_page, problems, screenshot_dir, alice, django_user_model
):
    """The profile's "make this account a bot" form, then the bot's profile, its player page and
    its game page (read-only, "a bot by fay"), at 390 and 1280 px, with axe."""
    make_user(django_user_model, "fay", display_name="Fay")
    robo = make_user(django_user_model, "robo", display_name="Robo")
    page = new_page("robo")
    log_in(page, live_server, "robo", PASSWORD)
    found = []
    page.goto(f"{live_server.url}{reverse('profile')}#bot-account")
    page.locator("#bot-account summary").click()
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        found += [f"bot form, {size_name}: {p}" for p in axe_problems(page)]
        shoot(page.locator("#bot-account"), screenshot_dir / f"bot-form-{size_name}.png")
    form = page.locator("#bot-form")
    form.get_by_label("Your own account's username").fill("fay")
    form.get_by_label("That account's password").fill(PASSWORD)
    form.get_by_label("I understand").check()
    form.get_by_role("button", name="Make this account a bot, for good").click()
    expect(page.locator("#bot-status")).to_contain_text("This account is a bot by fay")
    robo.refresh_from_db()
    assert robo.is_bot and robo.bot_owner_id == "fay"

    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    tables.invite(alice, game.pk, "robo")
    robo.plays_by_bot_token = True  # as its `bot` token does through the API
    tables.join_game(robo, game.pk)
    tables.start_game(alice, game.pk)
    pages = {
        "profile": f"{reverse('profile')}#bot-account",
        "player": reverse("player", args=["robo"]),
        "game": reverse("game", args=[game.pk]),
    }
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            found += [f"bot {name}, {size_name}: {p}" for p in axe_problems(page)]
            shoot(page, screenshot_dir / f"bot-{name}-{size_name}.png", full_page=True)
            if name == "player":
                expect(page.locator("#bot-by")).to_contain_text("Robo is a bot by fay")
        expect(page.locator(".notice", has_text="This is a bot account")).to_be_visible()
        assert page.locator("form[action$='/move/']").count() == 0  # read-only
    assert not found, "axe found:\n" + "\n".join(found)
    problems.assert_none()
