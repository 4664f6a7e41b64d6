"""Issue 14, point 7: the Out of Gears page on a phone. The story of the last turn comes before
the program form and the board; a refused program comes back with what the player picked and
the error beside the form; O17's "two different Action cards" is refused in words."""

from __future__ import annotations

import re

import pytest

from tests.support.games import client_for, snapshot, start_oog
from tests.support.pages import page_version, text
from tests.views.outofgears.helpers import checked, error_text, post_program, program

pytestmark = pytest.mark.django_db


@pytest.fixture
def advanced(alice, bob):
    """Advanced game (O17): alice drives robots 1 and 2, bob 5 and 6."""
    return start_oog([alice, bob], robots=[(1, 2), (5, 6)], advanced=True)


def my_area(page: str) -> str:
    found = re.search(r'<section class="my-area".*?</section>', page, re.S)
    assert found, "the page has no program area"
    return found.group(0)


def test_the_story_comes_before_the_program_form_and_the_board(advanced, alice):
    page = text(client_for(alice).get(advanced.get_absolute_url()))
    story = page.index('<section class="story"')
    form = page.index('<form method="post" action="/games/')
    board = page.index('<section class="table"')
    assert story < form < board


def test_o17_the_same_action_card_for_both_robots_is_refused_and_the_form_keeps_the_choices(
    advanced, alice
):
    client = client_for(alice)
    page = text(client.get(advanced.get_absolute_url()))
    before = snapshot(advanced)

    same = program((1, "harvest", 5), (2, "harvest", 6))
    refused = post_program(client, advanced, same, page_version(page))

    assert refused.status_code == 400
    answer = text(refused)
    # The error is where the action was: in the program area, above the form.
    area = my_area(answer)
    assert error_text(area) == (
        "Your two robots share one set of Action cards: give them different actions."
    )
    assert area.index('class="error"') < area.index("<form")
    # What alice picked is still picked (the form re-rendered with her choices).
    assert checked(answer) == {
        "robot-1-action": "harvest",
        "robot-1-number": "5",
        "robot-2-action": "harvest",
        "robot-2-number": "6",
    }
    assert snapshot(advanced) == before


def test_a_refused_program_keeps_the_choices_even_over_a_stored_program(advanced, alice):
    """alice has a program in; her change is refused: the form shows the change, not the old."""
    client = client_for(alice)
    page = text(client.get(advanced.get_absolute_url()))
    stored = program((1, "attack", 1), (2, "trap", 2))
    assert post_program(client, advanced, stored, page_version(page)).status_code == 200
    advanced.refresh_from_db()

    change = program((1, "trap", 6), (2, "trap", 5))
    refused = post_program(client, advanced, change, advanced.turn_version)

    assert refused.status_code == 400
    assert checked(text(refused)) == {
        "robot-1-action": "trap",
        "robot-1-number": "6",
        "robot-2-action": "trap",
        "robot-2-number": "5",
    }
    advanced.refresh_from_db()
    assert advanced.state["programs"][advanced.seats.get(user=alice).seat_id] == [
        {"robot": 1, "action": "attack", "number": 1},
        {"robot": 2, "action": "trap", "number": 2},
    ]
    # Once looked at again, the page shows what is stored.
    assert checked(text(client.get(advanced.get_absolute_url())))["robot-1-action"] == "attack"


def test_the_form_names_each_robot_for_the_script_that_disables_a_used_action_card(advanced, alice):
    page = text(client_for(alice).get(advanced.get_absolute_url()))
    assert 'data-robot-name="Red"' in page and 'data-robot-name="Blue"' in page
