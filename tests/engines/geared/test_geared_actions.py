"""G8, G13-G16: Remove, Steal, Swap, their legal targets, and discarding or passing."""

import pytest
from geared_helpers import WILD_FRAME, WILD_WHEELS, make_state, part, remove, steal, swap

from games.engines.geared import engine

A, B, C = "alice", "bob", "carol"
F1, H1, W1 = part("frame", 1), part("handlebars", 1), part("wheels", 1)
F3, H3, W5 = part("frame", 3), part("handlebars", 3), part("wheels", 5)


def test_g13_remove_an_opponents_part_to_the_discard_pile():
    state = make_state({A: [remove()], B: [H1]}, builds={B: [[F3, H3]]}, draw=[W1])
    action = {"type": "remove", "card": remove(), "target": F3}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert after["builds"][B] == [{"id": 1, "cards": [H3]}]
    assert after["discard"] == [F3, remove()]
    assert after["hands"][A] == [W1]


def test_g13_remove_ones_own_part_and_an_empty_build_disappears():
    state = make_state({A: [remove(), H1], B: [H1 + 1]}, builds={A: [[F3]]})
    action = {"type": "remove", "card": remove(), "target": F3}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert after["builds"][A] == []


def test_g13_any_copy_is_accepted_and_only_the_lowest_is_listed():
    state = make_state({A: [remove(0), remove(3)], B: [H1]}, builds={B: [[F3]]})
    legal = engine.legal_actions(state, A)
    assert legal == [{"type": "remove", "card": remove(0), "target": F3}]
    after = engine.apply(state, A, {"type": "remove", "card": remove(3), "target": F3})
    assert after["hands"][A][0] == remove(0)


def test_g14_steal_into_a_new_build():
    state = make_state({A: [steal()], B: [H1], C: [F1]}, builds={B: [[W5]]})
    action = {"type": "steal", "card": steal(), "target": W5, "to": "new"}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert after["builds"][B] == []
    assert after["builds"][A] == [{"id": 2, "cards": [W5]}]
    assert after["discard"] == [steal()]


def test_g14_steal_into_an_existing_build_can_complete_it():
    f5, h5 = part("frame", 5), part("handlebars", 5)
    state = make_state({A: [steal()], B: [H1]}, builds={A: [[f5, h5]], B: [[W5]]})
    after = engine.apply(state, A, {"type": "steal", "card": steal(), "target": W5, "to": 1})
    assert after["scores"][A] == 500
    types = [e["type"] for e in after["events"]]
    assert types == ["stole", "completed", "drew"]


def test_g14_never_from_oneself():
    state = make_state({A: [steal()], B: [H1]}, builds={A: [[F3]]})
    assert engine.legal_actions(state, A) == [{"type": "discard", "card": steal()}]
    with pytest.raises(engine.IllegalMove, match="No opponent"):
        engine.apply(state, A, {"type": "steal", "card": steal(), "target": F3, "to": "new"})
    state = make_state({A: [steal()], B: [H1]}, builds={A: [[F3]], B: [[W1]]})
    with pytest.raises(engine.IllegalMove, match="yourself"):
        engine.apply(state, A, {"type": "steal", "card": steal(), "target": F3, "to": "new"})


def test_g14_stolen_wild_declares_a_level_within_g12():
    state = make_state(
        {A: [steal()], B: [H1]},
        builds={A: [[F3]], B: [[WILD_WHEELS]]},
        wild_levels={WILD_WHEELS: 2},
    )
    legal = engine.legal_actions(state, A)
    assert {"type": "steal", "card": steal(), "target": WILD_WHEELS, "to": 1, "level": 3} in legal
    assert {
        "type": "steal",
        "card": steal(),
        "target": WILD_WHEELS,
        "to": 1,
        "level": 2,
    } not in legal
    with pytest.raises(engine.IllegalMove, match="Level 3"):
        engine.apply(
            state, A, {"type": "steal", "card": steal(), "target": WILD_WHEELS, "to": 1, "level": 2}
        )
    with pytest.raises(engine.IllegalMove, match="Say which level"):
        engine.apply(state, A, {"type": "steal", "card": steal(), "target": WILD_WHEELS, "to": 1})
    after = engine.apply(
        state, A, {"type": "steal", "card": steal(), "target": WILD_WHEELS, "to": 1, "level": 3}
    )
    assert after["wild_levels"][2] == 3


def test_g15_swap_across_part_types():
    h2 = part("handlebars", 2)
    state = make_state({A: [swap()], B: [H1]}, builds={A: [[F3, h2]], B: [[W5, F1]]})
    action = {"type": "swap", "card": swap(), "mine": h2, "theirs": W5}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert sorted(after["builds"][A][0]["cards"]) == sorted([F3, W5])
    assert sorted(after["builds"][B][0]["cards"]) == sorted([h2, F1])


def test_g15_g9_swap_refused_when_a_build_would_hold_two_of_a_type():
    h2 = part("handlebars", 2)
    state = make_state({A: [swap()], B: [H1]}, builds={A: [[F3, h2]], B: [[F1]]})
    assert {"type": "swap", "card": swap(), "mine": h2, "theirs": F1} not in (
        engine.legal_actions(state, A)
    )
    with pytest.raises(engine.IllegalMove, match="already has a Frame"):
        engine.apply(state, A, {"type": "swap", "card": swap(), "mine": h2, "theirs": F1})


def test_g15_g12_swap_refused_when_a_wilds_level_would_not_match():
    h2 = part("handlebars", 2)
    # Bob's build holds a Level 4 wild: Alice's Level 2 Handlebars cannot enter it.
    state = make_state(
        {A: [swap()], B: [H1]},
        builds={A: [[h2]], B: [[WILD_FRAME, part("wheels", 4)]]},
        wild_levels={WILD_FRAME: 4},
    )
    action = {"type": "swap", "card": swap(), "mine": h2, "theirs": part("wheels", 4)}
    assert action not in engine.legal_actions(state, A)
    with pytest.raises(engine.IllegalMove, match="Level 4"):
        engine.apply(state, A, action)


def test_g15_g12_swapped_wild_takes_its_new_builds_level_or_keeps_it_alone():
    h2 = part("handlebars", 2)
    state = make_state(
        {A: [swap()], B: [H1]},
        builds={A: [[F3, h2]], B: [[WILD_WHEELS, W1]]},
        wild_levels={WILD_WHEELS: 1},
    )
    # The wild enters Alice's build beside the Level 2 Handlebars and takes Level 2.
    action = {"type": "swap", "card": swap(), "mine": F3, "theirs": WILD_WHEELS}
    assert action in engine.legal_actions(state, A)
    assert engine.apply(state, A, action)["wild_levels"][2] == 2
    state = make_state(
        {A: [swap()], B: [H1]},
        builds={A: [[F3, h2]], B: [[WILD_FRAME, W1]]},
        wild_levels={WILD_FRAME: 1},
    )
    action = {"type": "swap", "card": swap(), "mine": h2, "theirs": WILD_FRAME}
    # Alice's build would hold a Level 3 Frame and the Wild Frame: two Frames.
    assert action not in engine.legal_actions(state, A)
    state = make_state(
        {A: [swap()], B: [H1]},
        builds={A: [[F3, H3]], B: [[WILD_FRAME]]},
        wild_levels={WILD_FRAME: 1},
    )
    action = {"type": "swap", "card": swap(), "mine": F3, "theirs": WILD_FRAME}
    assert action in engine.legal_actions(state, A)
    after = engine.apply(state, A, action)
    assert after["wild_levels"][0] == 3  # took the level of H3
    assert after["builds"][B][0]["cards"] == [F3]
    state = make_state(
        {A: [swap()], B: [H1]}, builds={A: [[WILD_FRAME]], B: [[W5]]}, wild_levels={WILD_FRAME: 2}
    )
    after = engine.apply(
        state, A, {"type": "swap", "card": swap(), "mine": WILD_FRAME, "theirs": W5}
    )
    assert after["wild_levels"][0] == 2  # arrived alone: keeps its level


def test_g10_a_swap_never_completes_a_build():
    h2 = part("handlebars", 2)
    state = make_state({A: [swap()], B: [H1]}, builds={A: [[F3, h2]], B: [[W5]]})
    after = engine.apply(state, A, {"type": "swap", "card": swap(), "mine": h2, "theirs": W5})
    assert after["scores"][A] == 0
    assert len(after["builds"][A][0]["cards"]) == 2


def test_g16_action_card_without_a_legal_target_is_not_offered_and_refused():
    state = make_state({A: [remove(), steal(), swap()], B: [H1]})
    legal = engine.legal_actions(state, A)
    assert [a["type"] for a in legal] == ["discard"] * 3
    for card, action in [
        (remove(), {"target": F1}),
        (steal(), {"target": F1, "to": "new"}),
        (swap(), {"mine": F1, "theirs": H1}),
    ]:
        kind = {remove(): "remove", steal(): "steal", swap(): "swap"}[card]
        with pytest.raises(engine.IllegalMove):
            engine.apply(state, A, {"type": kind, "card": card, **action})


def test_g8_discard_and_draw_when_no_play_is_legal():
    state = make_state({A: [swap(), swap(1)], B: [H1]}, draw=[W1])
    assert engine.legal_actions(state, A) == [{"type": "discard", "card": swap()}]
    after = engine.apply(state, A, {"type": "discard", "card": swap(1)})
    assert after["discard"] == [swap(1)]
    assert after["hands"][A] == sorted([swap(), W1])
    assert [e["type"] for e in after["events"]] == ["discarded", "drew"]


def test_g8_discard_refused_when_a_play_is_legal():
    state = make_state({A: [swap(), F1], B: [H1]})
    assert {"type": "discard", "card": swap()} not in engine.legal_actions(state, A)
    with pytest.raises(engine.IllegalMove, match="legal play"):
        engine.apply(state, A, {"type": "discard", "card": swap()})


def test_g8_empty_hand_rearranges_then_passes_and_draws_nothing():
    state = make_state({A: [], B: [H1]}, builds={A: [[F3, H3]]})
    legal = engine.legal_actions(state, A)
    assert legal[-1] == {"type": "pass"}
    assert {"type": "rearrange", "card": F3, "to": "new"} in legal
    after = engine.apply(state, A, {"type": "pass"})
    assert after["hands"][A] == []
    assert engine.current_seat(after) == B
    with pytest.raises(engine.IllegalMove, match="empty"):
        engine.apply(make_state({A: [F1], B: [H1]}), A, {"type": "pass"})


def test_g8_every_hand_and_pile_empty_ends_the_game_highest_score_wins():
    state = make_state({A: [], B: []}, scores={A: 200, B: 300}, fill_draw=False)
    state["discard"] = []  # nothing anywhere to draw
    state["builds"][A] = [{"id": 1, "cards": list(range(96))}]  # parked out of play
    after = engine.apply(state, A, {"type": "pass"})
    assert engine.is_over(after)
    assert engine.result(after)["winners"] == [B]
    assert engine.result(after)["ranking"] == [B, A]
