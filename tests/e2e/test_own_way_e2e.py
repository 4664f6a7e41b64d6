"""Issue 27.7, 27.8 and 27.11 in the browser, at 390 and 1280 px: the 404 page in the frame,
the chat after a report, a hidden message, a suspended player's closed chat, the time zone
guessed at sign-up, and the admin's changelists: axe at 0 critical and 0 serious, no console
error and no CSP violation. Screenshots in test-artifacts/screenshots/own-way-*.png."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games.actions import moderation
from games.models import ChatMessage
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.browser import axe_problems
from tests.support.games import start_geared
from tests.support.users import PASSWORD, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = (("390", PHONE), ("1280", DESKTOP))
MISSING = "/games/987654/"


def test_issue_27_7_8_11_walk(
    live_server, new_page, problems, screenshot_dir, django_user_model, alice, bob, carol
):
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    game = start_geared([alice, bob, carol], public=True)
    rude = [moderation.post_chat(bob, game.pk, f"rude thing number {n}") for n in (1, 2)]
    # The 404 page is visited on purpose: its status, and Chromium's line about it.
    problems.expected += [
        f"HTTP 404 GET {live_server.url}{MISSING}",
        f"404 (Not Found) @ {{'url': '{live_server.url}{MISSING}'",
    ]
    found: list[str] = []

    def check(page, name: str, size_name: str) -> None:
        found.extend(f"{name}, {size_name} px: {p}" for p in axe_problems(page))
        shoot(page, screenshot_dir / f"own-way-{name}-{size_name}.png", full_page=True)

    # A player: the 404 page, then a report in the chat (one message at each size).
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    for (size_name, size), message in zip(SIZES, rude, strict=True):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{MISSING}")
        expect(page.locator("main h1")).to_have_text("Not found")
        expect(page.locator("main")).to_contain_text("There is no such game.")
        check(page, "404", size_name)

        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        line = page.locator(".chat-line", has_text=message.text)
        line.locator("summary").click()
        line.locator("input[name=reason]").fill("insult")
        line.locator("button", has_text="Report").click()
        expect(page.locator("#chat-log [role=status]")).to_have_text(
            "Thank you: a moderator will look at it."
        )
        expect(page.locator("#chat-log ol > :not(li)")).to_have_count(0)
        check(page, "chat-reported", size_name)

    # The moderator hides the first message in the admin, and looks at the changelists.
    mod = new_page("mod")
    log_in(mod, live_server, "mod", PASSWORD)
    mod.goto(f"{live_server.url}{reverse('admin:games_chatmessage_hide', args=[rude[0].pk])}")
    mod.fill("textarea[name=reason]", "an insult")
    mod.locator("input[type=submit]").click()
    expect(mod.locator(".messagelist")).to_contain_text("The message is hidden.")
    assert ChatMessage.objects.get(pk=rude[0].pk).hidden
    changelists = ["chatmessage", "report", "game", "moderationaction", "notification"]
    for size_name, size in SIZES:
        mod.set_viewport_size(size)
        for model in changelists:
            mod.goto(f"{live_server.url}{reverse(f'admin:games_{model}_changelist')}")
            expect(mod.locator("#result_list, .paginator").first).to_be_visible()
            check(mod, f"admin-{model}", size_name)
        mod.goto(f"{live_server.url}{reverse('admin:accounts_user_changelist')}")
        check(mod, "admin-user", size_name)
        mod.goto(f"{live_server.url}{reverse('admin:games_game_change', args=[game.pk])}")
        check(mod, "admin-game-inlines", size_name)
        empty = "() => [...document.querySelectorAll('th')].filter(th => !th.textContent.trim())"
        assert mod.evaluate(f"{empty}.length") == 0, "every table header has a name"

    # Everyone now reads "message hidden by a moderator", not the insult.
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("#chat-log")).to_contain_text("message hidden by a moderator")
    expect(page.locator("#chat-log")).not_to_contain_text(rude[0].text)

    # Bob is suspended: his chat box says why it is closed, and until when.
    moderation.suspend(moderator, bob, "insults", timezone.now() + timedelta(days=3))
    bob_page = new_page("bob")
    log_in(bob_page, live_server, "bob", PASSWORD)
    for size_name, size in SIZES:
        bob_page.set_viewport_size(size)
        bob_page.goto(f"{live_server.url}{game.get_absolute_url()}")
        expect(bob_page.locator("#chat-closed")).to_contain_text("your account is suspended until")
        expect(bob_page.locator("#chat-text")).to_have_count(0)
        check(bob_page, "suspended", size_name)

    # A visitor in Tokyo signs up: the browser's zone is chosen for them.
    visitor = new_page("visitor", timezone_id="Asia/Tokyo")
    for size_name, size in SIZES:
        visitor.set_viewport_size(size)
        visitor.goto(f"{live_server.url}{reverse('account_signup')}")
        expect(visitor.locator("select[name=time_zone]")).to_have_value("Asia/Tokyo")
        check(visitor, "signup", size_name)

    assert not found, "\n".join(found)
    problems.assert_none()
