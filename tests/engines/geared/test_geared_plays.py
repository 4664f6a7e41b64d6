"""G5, G6, G9-G12: playing parts, rearranging, builds, completion, scoring and wilds."""

import pytest
from geared_helpers import WILD_FRAME, WILD_HANDLEBARS, WILD_WHEELS, make_state, part, remove

from games.engines.geared import engine
from games.engines.geared.builds import score

A, B = "alice", "bob"
F1, H1, W1 = part("frame", 1), part("handlebars", 1), part("wheels", 1)


def builds_of(state, seat):
    return [sorted(b["cards"]) for b in state["builds"][seat]]


def test_g11_set_of_level_1_scores_100():
    assert score([(F1, 1), (H1, 1), (W1, 1)]) == (100, True, 1)


def test_g11_set_of_level_5_scores_500():
    cards = [part("frame", 5), part("handlebars", 5), part("wheels", 5)]
    assert score([(c, 5) for c in cards]) == (500, True, 5)


def test_g11_mixed_levels_score_part_values():
    entries = [(part("frame", 1), 1), (part("handlebars", 2), 2), (part("wheels", 3), 3)]
    assert score(entries) == (120, False, None)


def test_g5a_play_one_part_into_a_new_build_and_draw_one():
    state = make_state({A: [F1, remove()], B: [H1]}, draw=[W1])
    assert {"type": "play", "cards": [F1], "builds": ["new1"]} in engine.legal_actions(state, A)
    after = engine.apply(state, A, {"type": "play", "cards": [F1], "builds": ["new1"]})
    assert builds_of(after, A) == [[F1]]
    assert after["hands"][A] == sorted([remove(), W1])
    assert engine.current_seat(after) == B


def test_g5a_play_one_part_into_an_existing_build():
    h2 = part("handlebars", 2)
    state = make_state({A: [h2], B: [H1]}, builds={A: [[F1]]})
    after = engine.apply(state, A, {"type": "play", "cards": [h2], "builds": [1]})
    assert builds_of(after, A) == [sorted([F1, h2])]


def test_g5b_three_same_level_parts_into_one_build_complete_a_set():
    state = make_state({A: [F1, H1, W1], B: [remove()]})
    after = engine.apply(state, A, {"type": "play", "cards": [F1, H1, W1], "builds": ["new1"] * 3})
    assert after["scores"][A] == 100
    assert after["builds"][A] == []
    assert after["bikes"][A][0]["set"] is True
    assert len(after["hands"][A]) == 3  # G7: drew three


def test_g5b_two_same_level_parts_spread_over_two_builds():
    f2, h2 = part("frame", 2), part("handlebars", 2)
    state = make_state({A: [f2, h2], B: [remove()]}, builds={A: [[part("wheels", 4)]]})
    action = {"type": "play", "cards": [f2, h2], "builds": [1, "new1"]}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert builds_of(after, A) == [sorted([part("wheels", 4), f2]), [h2]]
    assert len(after["hands"][A]) == 2


def test_g5b_two_parts_of_one_type_go_to_different_builds():
    fa, fb = part("frame", 3, 0), part("frame", 3, 1)
    state = make_state({A: [fa, fb], B: [remove()]})
    legal = engine.legal_actions(state, A)
    assert {"type": "play", "cards": [fa, fb], "builds": ["new1", "new2"]} in legal
    assert {"type": "play", "cards": [fa, fb], "builds": ["new1", "new1"]} not in legal
    with pytest.raises(engine.IllegalMove, match="Two Frame parts"):
        engine.apply(state, A, {"type": "play", "cards": [fa, fb], "builds": ["new1", "new1"]})
    after = engine.apply(state, A, {"type": "play", "cards": [fa, fb], "builds": ["new2", "new1"]})
    assert builds_of(after, A) == [[fa], [fb]]


def test_g5b_three_parts_spread_over_three_builds():
    f, h, w = part("frame", 2), part("handlebars", 2), part("wheels", 2)
    state = make_state({A: [f, h, w], B: [remove()]})
    action = {"type": "play", "cards": [f, h, w], "builds": ["new1", "new2", "new3"]}
    assert action in engine.legal_actions(state, A)
    assert len(engine.apply(state, A, action)["builds"][A]) == 3


def test_g5b_mixed_levels_are_refused():
    f1, h2 = part("frame", 1), part("handlebars", 2)
    state = make_state({A: [f1, h2], B: [remove()]})
    assert not [a for a in engine.legal_actions(state, A) if len(a.get("cards", [])) == 2]
    with pytest.raises(engine.IllegalMove, match="same level"):
        engine.apply(state, A, {"type": "play", "cards": [f1, h2], "builds": ["new1", "new1"]})


def test_g5c_action_and_parts_never_in_one_play():
    state = make_state({A: [F1, remove()], B: [H1]}, builds={B: [[W1]]})
    with pytest.raises(engine.IllegalMove, match="Action card"):
        engine.apply(state, A, {"type": "play", "cards": [F1, remove()], "builds": ["new1"] * 2})


def test_g5_new_build_labels_are_canonical_in_legal_actions():
    f, h = part("frame", 2), part("handlebars", 2)
    state = make_state({A: [f, h], B: [remove()]})
    labels = [a["builds"] for a in engine.legal_actions(state, A) if len(a.get("cards", [])) == 2]
    assert ["new2", "new1"] not in labels
    assert sorted(labels) == [["new1", "new1"], ["new1", "new2"]]
    # apply accepts any labelling and any card order
    after = engine.apply(state, A, {"type": "play", "cards": [h, f], "builds": ["new3", "new2"]})
    assert builds_of(after, A) == [[f], [h]]


def test_g9_a_build_holds_one_part_of_each_type():
    state = make_state({A: [part("frame", 2)], B: [H1]}, builds={A: [[F1]]})
    assert {"type": "play", "cards": [part("frame", 2)], "builds": [1]} not in (
        engine.legal_actions(state, A)
    )
    with pytest.raises(engine.IllegalMove, match="Your build already has a Frame"):
        engine.apply(state, A, {"type": "play", "cards": [part("frame", 2)], "builds": [1]})


def test_g9_levels_need_not_match_and_g10_completion_scores_at_once():
    f1, h2, w3 = part("frame", 1), part("handlebars", 2), part("wheels", 3)
    state = make_state({A: [w3], B: [H1]}, builds={A: [[f1, h2]]})
    after = engine.apply(state, A, {"type": "play", "cards": [w3], "builds": [1]})
    assert after["scores"][A] == 120
    assert after["bikes"][A] == [
        {"cards": [f1, h2, w3], "points": 120, "set": False, "level": None}
    ]
    assert [e["type"] for e in after["events"]] == ["played", "completed", "drew"]


def test_g12_wild_takes_the_builds_level():
    f3, h3 = part("frame", 3), part("handlebars", 3)
    state = make_state({A: [WILD_WHEELS], B: [H1]}, builds={A: [[f3, h3]]})
    legal = [a for a in engine.legal_actions(state, A) if a["type"] == "play"]
    assert {"type": "play", "cards": [WILD_WHEELS], "builds": [1], "level": 3} in legal
    assert {"type": "play", "cards": [WILD_WHEELS], "builds": [1], "level": 2} not in legal
    with pytest.raises(engine.IllegalMove, match="must be Level 3"):
        engine.apply(state, A, {"type": "play", "cards": [WILD_WHEELS], "builds": [1], "level": 2})
    with pytest.raises(engine.IllegalMove, match="Say which level"):
        engine.apply(state, A, {"type": "play", "cards": [WILD_WHEELS], "builds": [1]})
    after = engine.apply(
        state, A, {"type": "play", "cards": [WILD_WHEELS], "builds": [1], "level": 3}
    )
    assert after["scores"][A] == 300


def test_g12_wild_cannot_join_mixed_levels():
    state = make_state({A: [WILD_WHEELS], B: [H1]}, builds={A: [[F1, part("handlebars", 2)]]})
    assert all(a.get("builds") != [1] for a in engine.legal_actions(state, A))
    with pytest.raises(engine.IllegalMove, match="share one level"):
        engine.apply(state, A, {"type": "play", "cards": [WILD_WHEELS], "builds": [1], "level": 1})


def test_g12_a_build_with_a_wild_takes_only_its_level():
    state = make_state(
        {A: [part("handlebars", 2)], B: [H1]},
        builds={A: [[WILD_FRAME]]},
        wild_levels={WILD_FRAME: 4},
    )
    with pytest.raises(engine.IllegalMove, match="Level 4"):
        engine.apply(state, A, {"type": "play", "cards": [part("handlebars", 2)], "builds": [1]})


def test_g12_wild_alone_may_take_any_level_and_level_only_with_wilds():
    state = make_state({A: [WILD_FRAME], B: [H1]})
    plays = [a for a in engine.legal_actions(state, A) if a["type"] == "play"]
    assert [a["level"] for a in plays] == [1, 2, 3, 4, 5]
    with pytest.raises(engine.IllegalMove, match="only when a wild"):
        s2 = make_state({A: [F1], B: [H1]})
        engine.apply(s2, A, {"type": "play", "cards": [F1], "builds": ["new1"], "level": 1})


def test_g12_wilds_in_a_multi_play_take_the_plays_level():
    f4 = part("frame", 4)
    state = make_state({A: [f4, WILD_HANDLEBARS], B: [H1]})
    action = {
        "type": "play",
        "cards": [f4, WILD_HANDLEBARS],
        "builds": ["new1", "new1"],
        "level": 4,
    }
    assert action in engine.legal_actions(state, A)
    with pytest.raises(engine.IllegalMove, match="takes Level 4"):
        engine.apply(state, A, {**action, "level": 2})
    after = engine.apply(state, A, action)
    assert after["wild_levels"][1] == 4


def test_g12_three_wilds_make_a_set_at_their_level():
    wilds = [WILD_FRAME, WILD_HANDLEBARS, WILD_WHEELS]
    state = make_state({A: wilds, B: [H1]})
    action = {"type": "play", "cards": wilds, "builds": ["new1"] * 3, "level": 5}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert after["scores"][A] == 500
    assert after["bikes"][A][0]["set"] is True
    assert after["wild_levels"] == [None, None, None]


def test_g12_last_wild_leaving_frees_the_build():
    f2 = part("frame", 2)
    state = make_state(
        {A: [remove(), part("handlebars", 5)], B: [H1]},
        builds={A: [[f2, WILD_WHEELS]]},
        wild_levels={WILD_WHEELS: 2},
    )
    after = engine.apply(state, A, {"type": "remove", "card": remove(), "target": WILD_WHEELS})
    assert after["wild_levels"] == [None, None, None]
    after["turn"] = 0
    after = engine.apply(
        after, A, {"type": "play", "cards": [part("handlebars", 5)], "builds": [1]}
    )
    assert builds_of(after, A) == [sorted([f2, part("handlebars", 5)])]


def test_g6_rearrange_moves_a_part_and_does_not_end_the_turn():
    f2, h3 = part("frame", 2), part("handlebars", 3)
    state = make_state({A: [W1], B: [H1]}, builds={A: [[f2, h3], [part("wheels", 5)]]})
    legal = engine.legal_actions(state, A)
    assert {"type": "rearrange", "card": h3, "to": 2} in legal
    assert {"type": "rearrange", "card": h3, "to": "new"} in legal
    assert {"type": "rearrange", "card": part("wheels", 5), "to": "new"} not in legal
    after = engine.apply(state, A, {"type": "rearrange", "card": h3, "to": 2})
    assert builds_of(after, A) == [[f2], sorted([h3, part("wheels", 5)])]
    assert engine.current_seat(after) == A
    with pytest.raises(engine.IllegalMove, match="changes nothing"):
        engine.apply(after, A, {"type": "rearrange", "card": f2, "to": "new"})


def test_g6_moving_a_lone_wild_to_new_only_to_redeclare_its_level():
    state = make_state({A: [W1], B: [H1]}, builds={A: [[WILD_FRAME]]}, wild_levels={WILD_FRAME: 2})
    moves = [a for a in engine.legal_actions(state, A) if a["type"] == "rearrange"]
    assert [a["level"] for a in moves] == [1, 3, 4, 5]
    after = engine.apply(
        state, A, {"type": "rearrange", "card": WILD_FRAME, "to": "new", "level": 5}
    )
    assert after["wild_levels"][0] == 5
    assert after["builds"][A][0]["id"] == 2


def test_g6_g10_rearrangement_that_completes_scores_it():
    f2, h3, w4 = part("frame", 2), part("handlebars", 3), part("wheels", 4)
    state = make_state({A: [W1], B: [H1]}, builds={A: [[f2, h3], [w4]]})
    after = engine.apply(state, A, {"type": "rearrange", "card": w4, "to": 1})
    assert after["scores"][A] == 180
    assert engine.current_seat(after) == A


def test_g6_g18_rearrangement_reaching_the_target_ends_the_game_at_once():
    f5, h5, w5 = part("frame", 5), part("handlebars", 5), part("wheels", 5)
    state = make_state({A: [W1], B: [H1]}, builds={A: [[f5, h5], [w5]]}, scores={A: 600})
    after = engine.apply(state, A, {"type": "rearrange", "card": w5, "to": 1})
    assert engine.is_over(after)
    assert engine.result(after) == {
        "scores": {A: 1100, B: 0},
        "winners": [A],
        "ranking": [A, B],
    }
    assert after["hands"][A] == [W1]  # no draw
    assert engine.legal_actions(after, A) == []
    assert engine.current_seat(after) is None
    with pytest.raises(engine.IllegalMove, match="over"):
        engine.apply(after, A, {"type": "pass"})


def test_g10_completed_bike_parts_never_move():
    state = make_state(
        {A: [remove(), F1], B: [H1]},
        bikes={B: [[part("frame", 2), part("handlebars", 2), part("wheels", 2)]]},
    )
    legal = engine.legal_actions(state, A)
    assert all(a["type"] == "play" for a in legal)
    with pytest.raises(engine.IllegalMove, match="no part on the table"):
        engine.apply(state, A, {"type": "remove", "card": remove(), "target": part("frame", 2)})
