"""Issue 37: the site in Italian in a browser. Giulia signs up from an Italian browser and reads
the site in Italian; Bob, at the same tables, reads it in English. Both games' pages in Italian,
at phone and desktop sizes: nothing cut or overflowing (Italian sentences are longer), axe at 0
critical and 0 serious, no console error. Screenshots (make screenshots):
test-artifacts/screenshots/it-*.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    geared_mid_game,
    log_in,
    outofgears_mid_game,
    shoot,
    sign_up,
)
from tests.support.browser import axe_problems
from tests.support.games import advance_to_turn_of
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What a reader would call cut or overflowing: the page wider than the screen, or an element
# that hides part of its own text (overflow hidden or clipped, an ellipsis) — not the
# screen-reader-only labels, which are clipped on purpose (the others' card names on a phone).
CUT = """() => {
  const found = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    found.push(`page: ${doc.scrollWidth} > ${doc.clientWidth}`);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(".sr-only, .skip") || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    // Hidden on purpose: invisible, or clipped to a pixel for screen readers only.
    if (style.visibility === "hidden" || style.clipPath !== "none" || el.clientWidth <= 1) continue;
    const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim()) {
      const what = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
      found.push(`${what}: ${el.textContent.trim().slice(0, 60)}`);
    }
  }
  return found;
}"""


def test_37_giulia_reads_both_games_in_italian_and_bob_in_english(
    live_server, new_page, problems, screenshot_dir, bob, carol
):
    page = new_page("giulia", locale="it-IT")
    sign_up(page, live_server, "giulia")
    giulia = get_user_model().objects.get(username="giulia")
    assert giulia.language == "it"  # guessed from her browser at sign-up
    expect(page.locator("html")).to_have_attribute("lang", "it")

    geared = geared_mid_game(giulia, bob, carol)
    geared = advance_to_turn_of(geared, giulia)
    oog = outofgears_mid_game(giulia, bob, carol)
    pages = {
        "lobby": reverse("lobby"),
        "my-games": reverse("my_games"),
        "geared": geared.get_absolute_url(),
        "outofgears": oog.get_absolute_url(),
        "log": reverse("game_log", args=[geared.pk]),
        "profile": reverse("profile"),
        "rules": reverse("rules_game", args=["outofgears"]),
    }
    found, cut = [], []
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        for name, url in pages.items():
            page.goto(f"{live_server.url}{url}")
            expect(page.locator("h1")).to_be_visible()
            expect(page.locator("nav.nav")).to_contain_text("Le mie partite")  # signed in
            page.wait_for_load_state("networkidle")
            expect(page.locator("html")).to_have_attribute("lang", "it")
            found += [f"{name}, {size_name} px: {p}" for p in axe_problems(page)]
            cut += [f"{name}, {size_name} px: {c}" for c in page.evaluate(CUT)]
            shoot(page, screenshot_dir / f"it-{name}-{size_name}.png", full_page=True)
    assert not found, "axe found:\n" + "\n".join(found)
    assert not cut, "cut or overflowing:\n" + "\n".join(cut)
    # Words she reads, in the glossary's terms.
    page.goto(f"{live_server.url}{geared.get_absolute_url()}")
    expect(page.locator("#game")).to_contain_text("Telaio")
    page.goto(f"{live_server.url}{oog.get_absolute_url()}")
    expect(page.locator("#game")).to_contain_text("ingranagg")

    # Bob, at the same tables, reads English.
    bob_page = new_page("bob", locale="en-US")
    log_in(bob_page, live_server, "bob", PASSWORD)
    bob_page.goto(f"{live_server.url}{geared.get_absolute_url()}")
    expect(bob_page.locator("html")).to_have_attribute("lang", "en")
    expect(bob_page.locator("#game")).to_contain_text("Frame")
    expect(bob_page.locator("nav.nav")).to_contain_text("My games")
    problems.assert_none()
