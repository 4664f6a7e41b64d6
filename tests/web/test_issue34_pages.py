"""Issue 34.10's page items, over HTTP: the host's table lists who is invited and their state
(to the table's players only), an invitee is told who invites them and may decline, a replay
never says "Your turn", the notes box's hint belongs to the game it is on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Move
from tests.replay.test_replay import finished_geared
from tests.support.games import client_for, start_geared, start_oog
from tests.web.helpers import text

pytestmark = pytest.mark.django_db


# --- (k) the notes box's hint is the game's own -------------------------------------------------


def notes_hint(page: str) -> str:
    box = re.search(r'<textarea id="notes-text"[^>]*\bplaceholder="([^"]*)"', page)
    assert box, "no notes box"
    return box.group(1)


def test_issue_34_10_the_notes_hint_is_each_games_own(alice, bob):
    client = client_for(alice)
    geared = start_geared([alice, bob], target=2000).get_absolute_url()
    oog = start_oog([alice, bob]).get_absolute_url()
    geared, oog = (notes_hint(text(client.get(url))) for url in (geared, oog))
    assert "Steal" in geared  # Geared's own cards
    # Out of Gears has no Steal (a Geared card): its hint speaks of its robots and junkyards.
    assert "Steal" not in oog and "junkyard" in oog


# --- (e) a replay is not live ------------------------------------------------------------------


def test_issue_34_10_a_replay_never_says_your_turn_nor_offers_a_move(alice, bob):
    game = finished_geared(alice, bob)
    steps = Move.objects.filter(game=game).count()
    url = reverse("game_replay", args=[game.pk])
    move = reverse("game_move", args=[game.pk])
    clients = (client_for(alice), client_for(bob))
    # Each player is the one to play at one of the first steps (step 0: the first seat's turn).
    for step in range(min(steps, 4)):
        for client in clients:
            page = text(client.get(url, {"step": step}))
            assert f"Step {step} of {steps}" in page
            assert "Your turn" not in page, step
            assert 'class="your-turn"' not in page and "my-turn" not in page
            assert move not in page  # no move form, no tappable card (it would lead to one)
            assert "Next to play" in page  # who played next, as everyone saw it
