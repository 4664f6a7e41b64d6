"""The Geared board's cards have one copy of their markup (issue 35.3): every card the page and
its fragment show — in a build's slot, a preview's faint card, the hand, a bike, the discard
pile — is templates/games/_card.html as rendered for that card, and each slot and hand card is
drawn by templates/games/geared.html's loops (games/pages/geared_html.py, which copied them,
is gone: tests/test_code_shape.py)."""

from __future__ import annotations

import pytest
from django.template.loader import get_template
from django.urls import reverse

from games.engines.geared import engine
from tests.support.games import advance, client_for, seat_to_act, start_geared
from tests.support.users import make_user
from tests.views.helpers import choices_for, selection_for

pytestmark = pytest.mark.django_db


def shown_cards(context) -> tuple[list[dict], int]:
    """The cards the page's context asks to draw, and how many slots it draws."""
    cards, slots = [], 0
    for p in context["players"]:
        for b in p["builds"]:
            for s in b["slots"]:
                slots += 1
                cards += [c for c in (s["ghost"] or s["card"],) if c]
        for nb in p["new_builds"]:
            slots += len(nb)
            cards += [c for c in nb.values() if c]
        cards += [c for bike in p["bikes"] for c in bike["cards"]]
    cards += [h["card"] for h in context["hand"]]
    if context["view"]["discard"]:
        cards.append(context["view"]["discard"][-1])
    return cards, slots


def check(response) -> None:
    assert response.status_code == 200
    page = response.content.decode()
    context = response.context
    cards, slots = shown_cards(context)
    card_template = get_template("games/_card.html")
    for c in cards:
        drawn = card_template.render({"c": c, "icons_url": context["icons_url"]})
        assert drawn in page, f"card {c['id']} is not drawn by _card.html"
    assert page.count("data-card=") == len(cards)
    assert page.count('class="slot ') == slots
    assert page.count('class="hand-card') == len(context["hand"])


@pytest.mark.parametrize(("players", "moves"), [(2, 0), (3, 24)])
def test_every_card_on_the_board_is_the_card_template(django_user_model, players, moves):
    users = [make_user(django_user_model, f"player{i}") for i in range(players)]
    game = advance(start_geared(users, target=2000), moves)
    page, fragment = reverse("game", args=[game.pk]), reverse("game_fragment", args=[game.pk])
    for user in users:
        client = client_for(user)
        check(client.get(page))
        check(client.get(fragment, HTTP_HX_REQUEST="true"))
    seat = seat_to_act(game)
    client = client_for(seat.user)
    for action in engine.legal_actions(game.state, seat.seat_id)[:8]:
        check(client.get(page + choices_for(action)))  # a selection: the links it offers
        check(client.get(page + selection_for(action)))  # a preview: faint cards, leaving ones
