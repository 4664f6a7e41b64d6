"""O18: until a turn resolves nobody but its owner sees a program; no page shows the seed, the
generator's state or the reserve's content — for every seat and for spectators."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.actions import moves
from tests.support.games import client_for, seat_of, start_oog
from tests.support.pages import text
from tests.support.users import make_user
from tests.views.outofgears.helpers import (
    checked,
    gear_count,
    has_story_heading,
    post_program,
    program,
    public_gear_count,
    revealed,
    sentence,
    submitted_line,
)

pytestmark = pytest.mark.django_db

# Turn 2's programs, each one a sentence that appears nowhere else on any page.
ALICE = program((1, "trap", 7))  # "Trap junkyard 7"
BOB = program((4, "attack", 7))  # "Attack Black"


def _mid_turn_two(alice, bob, carol, *, public: bool):
    """Turn 1 resolved (everyone defended); in turn 2 alice's and bob's programs are in, carol's
    is not."""
    game = start_oog([alice, bob, carol], robots=[(1,), (4,), (7,)], public=public)
    for user, robot in ((alice, 1), (bob, 4), (carol, 7)):
        game.refresh_from_db()
        moves.submit_action(user, game.pk, game.version, program((robot, "attack", robot)))
    assert moves.resolve_turn(game.pk, 1)
    game.refresh_from_db()
    moves.submit_action(alice, game.pk, game.version, ALICE)
    game.refresh_from_db()
    moves.submit_action(bob, game.pk, game.version, BOB)
    game.refresh_from_db()
    assert game.turn == 2
    assert set(game.state["programs"]) == {seat_of(game, alice).seat_id, seat_of(game, bob).seat_id}
    return game


def _sentences(action: dict) -> list[str]:
    return [sentence(e) for e in action["programs"]]


# Random tokens a page carries for its own requests: the CSRF token and the live check's signed
# poll key (ids only; tests/views/test_live.py). Letters drawn at random spell "rng" now and then.
_TOKENS = re.compile(r'(data-poll-key="|name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def _without_tokens(page: str) -> str:
    return _TOKENS.sub(r'\1"', page)


def _assert_no_secrets(page: str, game, where: str) -> None:
    state = game.state
    assert str(game.seed) not in page, where
    assert state["rng"] not in page, where
    assert "rng" not in _without_tokens(page).lower(), where
    # The reserve's gears are not on the page, only how many there are: every gear drawn on
    # the page is a public one (junkyards, robots, circuits).
    assert gear_count(page) == public_gear_count(state), where
    assert re.search(rf"Reserve: <strong>{len(state['reserve'])}</strong>", page), where


def _game_pages(client: Client, game, query: str = "") -> dict[str, str]:
    pages = {}
    for name in ("game", "game_fragment"):
        response = client.get(reverse(name, args=[game.pk]) + query)
        assert response.status_code == 200, name
        pages[name] = text(response)
    return pages


def test_o18_no_seat_sees_another_seats_program_before_the_turn_resolves(alice, bob, carol):
    game = _mid_turn_two(alice, bob, carol, public=False)
    own = {"alice": ALICE, "bob": BOB, "carol": None}
    for name, user in (("alice", alice), ("bob", bob), ("carol", carol)):
        mine = own[name]
        others = [s for n, a in own.items() if n != name and a for s in _sentences(a)]
        for where, page in _game_pages(client_for(user), game).items():
            label = f"{name}'s {where}"
            for hidden in others:
                assert hidden not in page, label
            if mine:
                (entry,) = mine["programs"]
                assert submitted_line(page).startswith(
                    f"Submitted: {entry['robot']} {sentence(entry)} — you can change it"
                ), label
                assert checked(page) == {
                    f"robot-{entry['robot']}-action": entry["action"],
                    f"robot-{entry['robot']}-number": str(entry["number"]),
                }, label
            else:
                assert submitted_line(page) == "", label
                assert checked(page) == {}, label
            # Only the viewer's own robot has form fields.
            robot = seat_of(game, user).robots[0]
            assert set(re.findall(r'name="robot-(\d+)-', page)) == {str(robot)}, label
            # Everyone sees who has submitted: alice and bob, not carol.
            assert page.count("✓ in") == 2, label
            # Turn 1's story (everyone defended) is public.
            assert revealed(page) == ["1 Defend", "4 Defend", "7 Defend"], label
            _assert_no_secrets(page, game, label)


def test_o18_spectators_see_who_submitted_but_no_program(alice, bob, carol, django_user_model):
    game = _mid_turn_two(alice, bob, carol, public=True)
    dave = make_user(django_user_model, "dave", display_name="Dave")
    hidden = _sentences(ALICE) + _sentences(BOB)
    for name, client in (("dave", client_for(dave)), ("anonymous", Client())):
        for where, page in _game_pages(client, game).items():
            label = f"{name}'s {where}"
            for sentence_ in hidden:
                assert sentence_ not in page, label
            assert submitted_line(page) == "", label
            assert 'name="program"' not in page, label
            assert not re.search(r'name="robot-\d+-', page), label
            assert page.count("✓ in") == 2, label
            assert "Turn 2: waiting for <strong>Carol</strong>." in page, label
            _assert_no_secrets(page, game, label)


def test_o18_the_log_shows_only_resolved_turns(alice, bob, carol, django_user_model):
    game = _mid_turn_two(alice, bob, carol, public=True)
    dave = make_user(django_user_model, "dave", display_name="Dave")
    hidden = _sentences(ALICE) + _sentences(BOB)
    for name, client in (
        ("alice", client_for(alice)),
        ("bob", client_for(bob)),
        ("carol", client_for(carol)),
        ("dave", client_for(dave)),
        ("anonymous", Client()),
    ):
        response = client.get(reverse("game_log", args=[game.pk]))
        assert response.status_code == 200, name
        page = text(response)
        assert has_story_heading(page, 1), name
        assert "Programs: Red: Defend · Yellow: Defend · Black: Defend" in page, name
        assert "Turn 2" not in page, name
        for sentence_ in hidden:
            assert sentence_ not in page, name
        assert str(game.seed) not in page, name
        assert "rng" not in _without_tokens(page).lower(), name


def test_o18_the_poll_says_only_whether_something_changed(alice, bob, carol, django_user_model):
    game = _mid_turn_two(alice, bob, carol, public=True)
    dave = make_user(django_user_model, "dave", display_name="Dave")
    poll = reverse("game_poll", args=[game.pk])
    for name, client in (
        ("alice", client_for(alice)),
        ("carol", client_for(carol)),
        ("dave", client_for(dave)),
        ("anonymous", Client()),
    ):
        same = client.get(poll, {"v": game.version})
        older = client.get(poll, {"v": game.version - 1})
        assert same.status_code == 204, name
        assert older.status_code == 200, name
        assert same.content == older.content == b"", name
        assert older["X-Game-Version"] == str(game.version), name


def test_o18_answers_to_programs_show_only_the_posters_own(alice, bob, carol):
    game = _mid_turn_two(alice, bob, carol, public=False)
    carol_client = client_for(carol)

    refused = post_program(carol_client, game, program((7, "fly", 1)), game.version)
    accepted_alice = post_program(client_for(alice), game, ALICE, game.version)

    assert refused.status_code == 400
    assert accepted_alice.status_code == 200
    for hidden in _sentences(ALICE) + _sentences(BOB):
        assert hidden not in text(refused)
    assert _sentences(BOB)[0] not in text(accepted_alice)
    _assert_no_secrets(text(refused), game, "carol's refusal")


def test_o18_a_visitor_with_the_join_link_can_follow_the_game_without_seeing_programs(
    alice, bob, carol
):
    game = _mid_turn_two(alice, bob, carol, public=False)
    visitor = Client()
    token = {"token": game.join_token}
    hidden = _sentences(ALICE) + _sentences(BOB)

    for name in ("game", "game_fragment"):
        response = visitor.get(reverse(name, args=[game.pk]), token)
        assert response.status_code == 200, name
        page = text(response)
        assert "Turn 2: waiting for <strong>Carol</strong>." in page, name
        for sentence_ in hidden:
            assert sentence_ not in page, name
        _assert_no_secrets(page, game, f"the visitor's {name}")
    log = visitor.get(reverse("game_log", args=[game.pk]), token)
    assert log.status_code == 200
    assert "Programs: Red: Defend · Yellow: Defend · Black: Defend" in text(log)
    for sentence_ in hidden:
        assert sentence_ not in text(log)
    poll = visitor.get(
        reverse("game_poll", args=[game.pk]), {"v": game.version, "t": token["token"]}
    )
    assert poll.status_code == 204
    # Without the link, the private game does not exist for a stranger.
    for name in ("game", "game_fragment", "game_log"):
        assert Client().get(reverse(name, args=[game.pk])).status_code == 404, name
        wrong = Client().get(reverse(name, args=[game.pk]), {"token": "not-the-token"})
        assert wrong.status_code == 404, name


def test_o18_the_pages_own_links_keep_the_join_links_token(alice, bob, carol):
    game = _mid_turn_two(alice, bob, carol, public=False)
    page = text(Client().get(game.get_absolute_url(), {"token": game.join_token}))

    log_link = re.search(r'<a href="([^"]*/log/[^"]*)"', page).group(1)
    assert game.join_token in log_link
    assert Client().get(log_link.replace("&amp;", "&")).status_code == 200
