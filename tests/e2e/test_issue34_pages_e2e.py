"""Issue 34.10's page items in a browser (Debian's Chromium): a part's name fits its card at a
phone's and a desktop's width, a 3-player Geared page reads in about two phone screens (my
hand and builds first, the opponents' builds compact, two side by side), and the Handle
page's breadcrumbs look like every other page's."""

from __future__ import annotations

import os

import pytest
from django.db import transaction
from django.urls import reverse
from playwright.sync_api import expect

from games.actions import moderation
from games.engines.geared.cards import LEVEL
from games.live import cache as live
from games.models import Game, Seat
from tests.e2e.helpers import DESKTOP, PHONE, log_in
from tests.support.browser import axe_problems
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Screenshots to look at, when asked for (E2E_SHOTS=<a folder>): before and after a change.
SHOTS = os.environ.get("E2E_SHOTS", "")

# Card ids (games/engines/geared/cards.py): 25 a part type, then 7, 6, 5, 4, 3 cards of levels 1 to
# 5.
FRAME = {1: 0, 2: 7, 3: 13, 4: 18, 5: 22}
BARS = {1: 25, 2: 32, 3: 38, 4: 43, 5: 47}
WHEELS = {1: 50, 2: 57, 3: 63, 4: 68, 5: 72}
REMOVE, STEAL, WILD_BARS = 75, 81, 94


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True, animations="disabled")


def _bike(cards: list[int]) -> dict:
    lvs = [LEVEL[c] for c in cards]
    same = len(set(lvs)) == 1
    points = 100 * lvs[0] if same else sum(20 * lv for lv in lvs)
    return {"cards": cards, "points": points, "set": same, "level": lvs[0] if same else None}


def lay_out(game: Game, me: str, *, builds: dict, bikes: dict, hand: list[int]) -> None:
    """A busy table, the same whatever the deal: each seat's builds and bikes as given, my hand
    as given, the other hands and the piles from the rest (every card in one place), my turn;
    a story of twelve long lines (plays of two cards, each sentence two lines on a phone, and
    draws). Then the version moves, so pages see it, and the seats' turns are set."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        state = game.state
        placed = [c for seat in builds for b in builds[seat] for c in b]
        placed += [c for seat in bikes for b in bikes[seat] for c in b] + hand
        assert len(set(placed)) == len(placed)
        rest = [c for c in range(96) if c not in placed]
        next_id = state["next_build_id"]
        for seat in state["seats"]:
            state["builds"][seat] = []
            for cards in builds.get(seat, []):
                state["builds"][seat].append({"id": next_id, "cards": list(cards)})
                next_id += 1
            state["bikes"][seat] = [_bike(list(b)) for b in bikes.get(seat, [])]
            state["scored"][seat] = list(state["bikes"][seat])
            state["scores"][seat] = sum(b["points"] for b in state["bikes"][seat])
            state["hands"][seat] = list(hand) if seat == me else [rest.pop() for _ in range(5)]
        state["next_build_id"] = next_id
        state["wild_levels"] = [None, None, None]
        state["discard"] = [rest.pop()]
        state["draw"] = rest
        state["turn"] = state["seats"].index(me)
        state["events"] = []
        for i in range(6):
            seat = state["seats"][i % len(state["seats"])]
            played = {"type": "played", "cards": [FRAME[2] + i, WHEELS[3] + i % 3]}
            drew = {"type": "drew", "count": 2, "cards": [REMOVE + i, STEAL + i]}
            for event in ({**played, "builds": [1000 + i]}, drew):
                state["events"].append({"n": len(state["events"]) + 1, "seat": seat, **event})
        game.state = state
        game.version += 1
        game.save(update_fields=["state", "version"])
        game.seats.update(to_act=False)
        game.seats.filter(position=int(me)).update(to_act=True)
    live.forget_turns(list(game.seats.values_list("user_id", flat=True)))


@pytest.fixture
def busy_table(alice, bob, carol):
    """A 3-player Geared game mid-way, Alice to play, with her hand full of long names: two
    builds and two bikes on each side of the table."""
    game = advance(start_geared([alice, bob, carol], target=2000), 12)
    seats = {s.user_id: s.seat_id for s in Seat.objects.filter(game=game)}
    me, *others = seats[alice.pk], seats[bob.pk], seats[carol.pk]
    everyone = [me, *others]
    builds, bikes = {}, {}
    for i, seat in enumerate(everyone):
        lv = i + 1
        builds[seat] = [[FRAME[lv] + 1, BARS[lv] + 1], [BARS[lv + 1] + 3]]
        bikes[seat] = [
            [FRAME[lv] + 2, BARS[lv] + 2, WHEELS[lv] + 2],  # a set
            [FRAME[5 - i], BARS[4] + i, WHEELS[lv + 2]],  # three levels
        ]
    hand = [BARS[1] + 4, WILD_BARS, STEAL, REMOVE, BARS[5] + 2]
    lay_out(game, me, builds=builds, bikes=bikes, hand=hand)
    return game


def open_game_page(page, live_server, game: Game, size: dict) -> None:
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("networkidle")


# Every card drawn with its name: its box holds its text (nothing spills), and the name's box
# lies inside the card's. Cards whose name is hidden (the bikes', a phone's compact ones, read
# out only) are skipped.
CARDS_THAT_SPILL = """() => [...document.querySelectorAll('.card')].flatMap(card => {
    const name = card.querySelector('.card-name');
    if (!name || name.getClientRects().length === 0 || name.getBoundingClientRect().width < 2)
        return [];
    const c = card.getBoundingClientRect(), n = name.getBoundingClientRect();
    const inside = n.left >= c.left - 0.5 && n.right <= c.right + 0.5
        && n.top >= c.top - 0.5 && n.bottom <= c.bottom + 0.5;
    return card.scrollWidth <= card.clientWidth && card.scrollHeight <= card.clientHeight
        && inside ? [] : [`${card.title}: ${card.scrollWidth}>${card.clientWidth} wide, `
            + `${card.scrollHeight}>${card.clientHeight} high, name inside: ${inside}`];
})"""


def test_issue_34_10_a_parts_name_fits_its_card_at_every_width(
    live_server, new_page, problems, busy_table
):
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    # The card sizes change at 420 px and at 560 px (static/css/site.css): each side of both,
    # a phone of 360 and 390, a tablet, the two-column layout from 980, a desktop.
    open_game_page(page, live_server, busy_table, PHONE)
    for width in (360, 390, 420, 421, 560, 561, 800, 980, 1280):
        # A resize applies the stylesheet's widths at once (no reload): the checks below read
        # the layout, which the browser brings up to date before it answers.
        page.set_viewport_size({"width": width, "height": 900})
        shoot(page, f"cards-{width}")
        names = page.locator(".hand .card-name").all_inner_texts()
        assert sum("Handle" in n for n in names) == 3, names  # two and a wild, in the hand
        assert page.evaluate(CARDS_THAT_SPILL) == [], width
    problems.assert_none()


def test_issue_34_10_a_three_player_table_reads_in_two_phone_screens(
    live_server, new_page, problems, busy_table
):
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    open_game_page(page, live_server, busy_table, PHONE)
    shoot(page, "table-390")
    screen = PHONE["height"]

    def box(selector: str) -> dict:
        return page.locator(selector).evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left,"
            " width: r.width}; }"
        )

    hand, mine, table = box(".my-area"), box(".player.is-me"), box("#game .table")
    others = [box(f".player:not(.is-me) >> nth={i}") for i in range(2)]
    # My hand, then my builds, then the others: read in that order from the top.
    assert hand["bottom"] <= mine["top"] and mine["bottom"] <= min(o["top"] for o in others)
    # The two others side by side, each in half the table's width.
    assert others[0]["top"] == others[1]["top"]
    assert all(o["width"] <= table["width"] / 2 for o in others)
    # The table (hand, builds, the others') ends within one and a half screens; everything a
    # player reads (the story, the chat) within two. Below the chat there is only the folded
    # notes' bar and the site's footer (about 150 px): the page, two screens and that.
    assert others[0]["bottom"] <= 1.5 * screen and others[1]["bottom"] <= 1.5 * screen
    assert box(".chat")["bottom"] <= 2 * screen
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2 * screen + 150, height
    # Nothing wider than the phone, and the page keeps its accessibility.
    assert (
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        <= 0
    )
    assert axe_problems(page) == []
    # A compact card is still named to a screen reader (its name clipped, not removed).
    small = page.locator(".player:not(.is-me) .slot.filled .card-name").first
    assert small.evaluate("e => getComputedStyle(e).display") != "none"
    # The notes open with a tap on their bar, and then take the whole width.
    page.locator("details#notes summary").click()
    expect(page.locator("#notes-text")).to_be_visible()
    problems.assert_none()


# What makes the admin's breadcrumb bar: the bar, an item, a link, the separator after an item.
CRUMB_STYLE = """() => {
    const bar = document.querySelector('.breadcrumbs'), item = bar.querySelector('li');
    const pick = (e, pseudo, names) => {
        const s = getComputedStyle(e, pseudo);
        return Object.fromEntries(names.map(n => [n, s.getPropertyValue(n)]));
    };
    return {
        bar: pick(bar, null, ['background-color', 'color', 'padding-left', 'padding-top',
                              'margin-top', 'list-style-type']),
        item: pick(item, null, ['display', 'font-size']),
        link: pick(bar.querySelector('a'), null, ['color']),
        separator: pick(item, '::after', ['content']),
    };
}"""


def test_issue_34_10_the_handle_pages_breadcrumbs_look_like_the_admins_own(
    live_server, new_page, problems, django_user_model, alice, bob
):
    make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    game = start_geared([alice, bob])
    rude = moderation.post_chat(bob, game.pk, "you are a bad player")
    report = moderation.report_message(alice, rude.pk, "insult")
    page = new_page("mod")
    log_in(page, live_server, "mod", PASSWORD)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        # Django's own change page of the report: the style every admin page shares.
        page.goto(f"{live_server.url}{reverse('admin:games_report_change', args=[report.pk])}")
        django = page.evaluate(CRUMB_STYLE)
        assert django["bar"]["background-color"] != "rgba(0, 0, 0, 0)"  # a bar indeed
        for name in ("games_report_handle", "games_game_moderate"):
            arg = report.pk if "report" in name else game.pk
            page.goto(f"{live_server.url}{reverse(f'admin:{name}', args=[arg])}")
            expect(page.locator(".breadcrumbs [aria-current=page]")).to_be_visible()
            assert page.evaluate(CRUMB_STYLE) == django, name
            shoot(page, f"admin-{name}-{size['width']}")
    problems.assert_none()
