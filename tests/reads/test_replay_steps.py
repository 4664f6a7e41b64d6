"""The replay walks a finished game without spoiling it (issue 27.6): it opens on the deal, only
its last step shows the final standings, and a step is a fragment swapped in place whose links
also work as plain links."""

import re

import pytest
from django.urls import reverse

from games.models import Move, Seat
from games.reads.replay import moves_of, replay
from games.views.records import _jumps
from tests.support.games import finished_geared
from tests.views.helpers import data_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob):
    # To 1000: no first play scores it (three cards make one bike at most, 500 for Level 5), so
    # every deal gives at least two steps and step 1 has one after it (a deal to 300 ended in one).
    return finished_geared(alice, bob, target=1000)


def test_issue_27_6_the_replay_opens_on_the_deal_and_keeps_the_end_for_its_last_step(
    client, alice, finished
):
    steps = Move.objects.filter(game=finished).count()
    client.force_login(alice)
    url = reverse("game_replay", args=[finished.pk])
    start = client.get(url).content.decode()  # as "Replay step by step" links to it
    assert f"Step 0 of {steps}" in start
    assert "The cards are dealt." in start
    assert "Final standings" not in start and "won with" not in start
    assert "Game over" not in start
    before_end = client.get(url, {"step": steps - 1}).content.decode()
    assert f"Step {steps - 1} of {steps}" in before_end
    assert "Final standings" not in before_end
    end = client.get(url, {"step": steps}).content.decode()
    assert "Final standings" in end and "won with" in end


def test_issue_27_6_a_step_is_a_fragment_for_htmx_and_a_page_for_back_and_plain_links(
    client, alice, finished
):
    client.force_login(alice)
    url = reverse("game_replay", args=[finished.pk])
    fragment = client.get(url, {"step": 1}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="replay"') and "<html" not in fragment
    assert "Step 1 of" in fragment
    # Each way on is a plain link too (no JavaScript), swapped in place with the URL pushed.
    links = re.findall(r'<a [^>]*data-step="(\d+)"[^>]*>', fragment)
    assert {"0", "2"} <= set(links)
    for tag in re.findall(r'<a [^>]*data-step="\d+"[^>]*>', fragment):
        href = re.search(r'href="([^"]*)"', tag).group(1)
        assert re.search(r'hx-get="([^"]*)"', tag).group(1) == href
        assert 'hx-push-url="true"' in tag and 'hx-target="#replay"' in tag
    # Back with htmx (it keeps no snapshots: historyCacheSize 0) asks for the whole page.
    restored = client.get(
        url, {"step": 1}, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    ).content.decode()
    assert "<html" in restored and 'id="replay"' in restored


def test_issue_27_6_the_deal_in_a_replay_shows_only_the_visitors_own_hand(client, alice, finished):
    bobs = Seat.objects.get(game=finished, user__username="bob").seat_id
    deal = replay(finished, moves_of(finished), 0)["hands"]
    client.force_login(alice)
    page = client.get(reverse("game_replay", args=[finished.pk]), {"step": 0}).content.decode()
    shown = data_cards(page)
    assert shown and not shown & set(deal[bobs])


@pytest.mark.parametrize(
    ("step", "steps", "labels"),
    [
        (0, 10, ["Next ▶", "End"]),  # failed once: "10 ▶" took the end's place, no "End"
        (0, 30, ["Next ▶", "10 ▶", "End"]),
        (5, 15, ["Start", "◀ Previous", "Next ▶", "End"]),
        (12, 30, ["Start", "◀ 2", "◀ Previous", "Next ▶", "22 ▶", "End"]),
        (1, 2, ["Start", "Next ▶"]),  # as before: the start's name, then the next step's
        (30, 30, ["Start", "◀ 20", "◀ Previous"]),
    ],
)
def test_issue_27_6_the_bar_names_start_and_end_wherever_a_jump_of_ten_lands_on_them(
    step, steps, labels
):
    assert [jump["label"] for jump in _jumps(step, steps)] == labels
