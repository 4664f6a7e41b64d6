"""G7, G17, G18: drawing, reshuffling and the end; the rulebook's example of play; bad input."""

import pytest
from geared_helpers import check_invariants, make_state, part, remove, steal, swap

from games.engines.geared import engine

A, B = "alice", "bob"
F1, H1, W1 = part("frame", 1), part("handlebars", 1), part("wheels", 1)


def test_g7_draw_as_many_as_played():
    f2, h2 = part("frame", 2), part("handlebars", 2)
    state = make_state({A: [f2, h2, remove()], B: [H1]}, draw=[W1, F1])
    after = engine.apply(state, A, {"type": "play", "cards": [f2, h2], "builds": ["new1", "new2"]})
    assert after["hands"][A] == sorted([remove(), W1, F1])
    assert after["events"][-1] == {"n": 2, "seat": A, "type": "drew", "count": 2, "cards": [W1, F1]}


def test_g17_reshuffle_discards_and_bikes_in_the_middle_of_a_draw_scores_kept():
    f, h, w = part("frame", 1), part("handlebars", 1), part("wheels", 1)
    bike = [part("frame", 2), part("handlebars", 2), part("wheels", 2)]
    state = make_state(
        {A: [f, h, w], B: [H1 + 1]},
        draw=[part("frame", 5)],
        discard=[remove(), steal()],
        bikes={B: [bike]},
        fill_draw=False,
    )
    # make the discard pile exactly two cards: park every other card in Bob's hand
    others = [c for c in state["discard"] if c not in (remove(), steal())]
    state["discard"] = [remove(), steal()]
    state["hands"][B] = sorted(state["hands"][B] + others)
    check_invariants(state)
    after = engine.apply(state, A, {"type": "play", "cards": [f, h, w], "builds": ["new1"] * 3})
    check_invariants(after)
    assert after["scores"] == {A: 100, B: 200}
    kinds = [e["type"] for e in after["events"]]
    assert kinds == ["played", "completed", "reshuffled", "drew"]
    reshuffle = after["events"][2]
    assert reshuffle["count"] == 2 + 3 + 3  # discards, Bob's bike and Alice's new bike
    assert reshuffle["bikes"] == 2
    assert after["bikes"] == {A: [], B: []}
    assert len(after["scored"][B]) == 1  # scores kept
    assert len(after["hands"][A]) == 3
    assert part("frame", 5) in after["hands"][A]  # the last card of the old pile came first
    assert len(after["draw"]) == 8 - 2


def test_g17_nothing_to_reshuffle_draws_what_there_is():
    state = make_state({A: [F1], B: [H1]}, fill_draw=False)
    state["hands"][B] = sorted(state["hands"][B] + state["discard"])
    state["discard"] = []
    after = engine.apply(state, A, {"type": "play", "cards": [F1], "builds": ["new1"]})
    assert after["hands"][A] == []
    check_invariants(after)


def test_g18_play_reaching_the_target_ends_without_a_draw():
    f, h, w = part("frame", 3), part("handlebars", 3), part("wheels", 3)
    state = make_state({A: [f, h, w], B: [H1]}, scores={A: 250}, target=500)
    after = engine.apply(state, A, {"type": "play", "cards": [f, h, w], "builds": ["new1"] * 3})
    assert engine.is_over(after)
    assert after["hands"][A] == []
    assert [e["type"] for e in after["events"]] == ["played", "completed", "game_over"]
    assert engine.result(after)["winners"] == [A]


def test_g18_steal_reaching_the_target_ends_the_game_card_discarded():
    f5, h5, w5 = part("frame", 5), part("handlebars", 5), part("wheels", 5)
    state = make_state({A: [steal()], B: [H1]}, builds={A: [[f5, h5]], B: [[w5]]}, scores={A: 500})
    after = engine.apply(state, A, {"type": "steal", "card": steal(), "target": w5, "to": 1})
    assert engine.is_over(after) and after["scores"][A] == 1000
    assert after["discard"][-1] == steal()
    assert after["hands"][A] == []


def test_example_of_play_from_the_rulebook():
    matt, rebecca, patrick, lindsay = "1", "2", "3", "4"
    f3 = part("frame", 3)
    w5 = part("wheels", 5)
    names = {matt: "Matt", rebecca: "Rebecca", patrick: "Patrick", lindsay: "Lindsay"}
    state = make_state(
        {
            matt: [f3, steal(), part("frame", 2, 1), part("frame", 4), part("wheels", 4)],
            rebecca: [remove(), part("frame", 2), part("handlebars", 4), swap(), swap(1)],
            patrick: [F1, H1, W1, part("wheels", 2), part("wheels", 3)],
            lindsay: [w5, part("handlebars", 2), part("handlebars", 3), remove(1), remove(2)],
        },
        draw=[
            part("frame", 1, 1),
            part("frame", 1, 2),
            part("frame", 1, 3),
            part("frame", 1, 4),
            part("frame", 1, 5),
            part("frame", 1, 6),
        ],
        names=names,
    )
    state = engine.apply(state, matt, {"type": "play", "cards": [f3], "builds": ["new1"]})
    assert state["builds"][matt] == [{"id": 1, "cards": [f3]}]
    assert len(state["hands"][matt]) == 5
    with pytest.raises(engine.IllegalMove, match="It is Rebecca's turn"):
        engine.apply(state, matt, {"type": "pass"})
    state = engine.apply(state, rebecca, {"type": "remove", "card": remove(), "target": f3})
    assert state["builds"][matt] == [] and state["discard"] == [f3, remove()]
    state = engine.apply(
        state, patrick, {"type": "play", "cards": [F1, H1, W1], "builds": ["new1"] * 3}
    )
    assert state["scores"][patrick] == 100
    assert len(state["hands"][patrick]) == 5
    state = engine.apply(state, lindsay, {"type": "play", "cards": [w5], "builds": ["new1"]})
    assert state["builds"][lindsay] == [{"id": 3, "cards": [w5]}]
    action = {"type": "steal", "card": steal(), "target": w5, "to": "new"}
    assert action in engine.legal_actions(state, matt)
    state = engine.apply(state, matt, action)
    assert state["builds"][matt] == [{"id": 4, "cards": [w5]}]
    assert state["builds"][lindsay] == []
    check_invariants(state)
    from games.pages.geared_text import describe

    said = [describe(e, names, None) for e in engine.view(state, None)["events"]]
    assert "Rebecca removed Matt's Level 3 Frame." in said
    assert "Patrick completed a Level 1 set: 100 points." in said
    assert "Matt stole Lindsay's Level 5 Wheels." in said
    assert "Patrick drew 3 cards." in said


BAD = [
    ("not a dict", "must be an object"),
    ({"type": "fly"}, "Unknown action type"),
    ({"cards": [1]}, "Unknown action type"),
    ({"type": "play", "cards": [F1]}, "needs a 'builds'"),
    ({"type": "play", "cards": [F1], "builds": ["new1"], "x": 1}, "Unexpected field"),
    ({"type": "play", "cards": "F1", "builds": ["new1"]}, "one to three"),
    ({"type": "play", "cards": [], "builds": []}, "one to three"),
    ({"type": "play", "cards": [F1], "builds": []}, "one destination"),
    ({"type": "play", "cards": [True], "builds": ["new1"]}, "card id"),
    ({"type": "play", "cards": [500], "builds": ["new1"]}, "card id"),
    ({"type": "play", "cards": [H1], "builds": ["new1"]}, "do not hold"),
    ({"type": "play", "cards": [F1, F1], "builds": ["new1", "new2"]}, "only once"),
    ({"type": "play", "cards": [F1], "builds": ["new9"]}, '"new1"'),
    ({"type": "play", "cards": [F1], "builds": [42]}, "no incomplete build 42"),
    ({"type": "play", "cards": [F1], "builds": [None]}, "destination"),
    ({"type": "remove", "card": F1, "target": F1}, "not a Remove card"),
    ({"type": "remove", "card": remove(5), "target": F1}, "do not hold"),
    ({"type": "swap", "card": swap(), "mine": H1, "theirs": W1}, "not a part in an incomplete"),
    ({"type": "rearrange", "card": W1, "to": "new"}, "your own incomplete builds"),
    ({"type": "discard", "card": swap()}, "legal play"),
    ({"type": "pass"}, "empty"),
]


@pytest.mark.parametrize(("action", "message"), BAD)
def test_illegal_moves_are_refused_with_a_sentence_and_state_untouched(action, message):
    import copy

    state = make_state({A: [F1, swap()], B: [H1]}, names={B: "Bob"})
    frozen = copy.deepcopy(state)
    with pytest.raises(engine.IllegalMove) as info:
        engine.apply(state, A, action)
    assert message in info.value.message
    assert info.value.message.endswith(".")
    assert state == frozen


def test_not_your_turn_and_unknown_seat():
    state = make_state({A: [F1], B: [H1]}, names={A: "Alice"})
    with pytest.raises(engine.IllegalMove, match="It is Alice's turn."):
        engine.apply(state, B, {"type": "play", "cards": [H1], "builds": ["new1"]})
    with pytest.raises(engine.IllegalMove, match="not a seat"):
        engine.apply(state, "mallory", {"type": "pass"})
    assert engine.legal_actions(state, B) == []
