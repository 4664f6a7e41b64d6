"""G19: what each seat and a spectator may see; describe() sentences for viewed events."""

import json

from geared_helpers import WILD_WHEELS, make_state, part, remove

from games.engines.geared import engine
from games.pages.geared_text import describe

A, B = "alice", "bob"
F1, H1, W1 = part("frame", 1), part("handlebars", 1), part("wheels", 1)
NAMES = {A: "Rebecca", B: "Matt"}


def test_g19_view_shows_own_hand_and_only_sizes_of_others():
    state = engine.new_game([A, B], seed=3, options={"names": NAMES})
    v = engine.view(state, A)
    assert [c["id"] for c in v["hand"]] == state["hands"][A]
    assert v["players"][B]["hand_size"] == 5
    text = json.dumps(v)
    for key in ("rng", "seed", '"draw"', '"hands"'):
        assert key not in text
    shown = {c["id"] for c in v["hand"]}
    assert not shown & set(state["hands"][B])
    spectator = engine.view(state, None)
    assert spectator["hand"] == [] and spectator["you"] is None
    assert spectator["draw_size"] == 86


def test_g19_only_the_drawer_sees_the_drawn_cards():
    state = make_state({A: [F1, remove()], B: [H1]}, draw=[W1], names=NAMES)
    after = engine.apply(state, A, {"type": "play", "cards": [F1], "builds": ["new1"]})
    mine = engine.view(after, A)["events"][-1]
    theirs = engine.view(after, B)["events"][-1]
    watcher = engine.view(after, None)["events"][-1]
    assert mine["cards"] == [W1]
    assert "cards" not in theirs and "cards" not in watcher
    assert describe(mine, NAMES, A) == "You drew a Level 1 Wheels."
    assert describe(theirs, NAMES, B) == "Rebecca drew 1 card."
    assert describe(watcher, NAMES, A) == "You drew 1 card."


def test_view_shows_builds_slots_wild_levels_and_bikes():
    f3 = part("frame", 3)
    state = make_state(
        {A: [H1], B: [W1]},
        builds={A: [[f3, WILD_WHEELS]]},
        wild_levels={WILD_WHEELS: 3},
        bikes={B: [[part("frame", 2), part("handlebars", 2), part("wheels", 2)]]},
    )
    v = engine.view(state, B)
    build = v["players"][A]["builds"][0]
    assert build["id"] == 1 and build["same_level"] and build["level"] == 3
    assert build["parts"]["handlebars"] is None
    assert build["parts"]["wheels"]["wild"] is True and build["parts"]["wheels"]["level"] == 3
    bike = v["players"][B]["bikes"][0]
    assert bike["points"] == 200 and bike["set"]
    assert v["players"][B]["score"] == 200
    assert v["turn"] == A and v["over"] is False and v["result"] is None


def test_describe_actions_from_each_side():
    w5 = part("wheels", 5)
    e = {
        "n": 1,
        "seat": B,
        "type": "stole",
        "card": 81,
        "target": w5,
        "target_level": 5,
        "level": None,
        "owner": A,
        "source": 1,
        "to": 2,
    }
    assert describe(e, NAMES, A) == "Matt stole your Level 5 Wheels."
    assert describe(e, NAMES, None) == "Matt stole Rebecca's Level 5 Wheels."
    e = {
        "n": 2,
        "seat": A,
        "type": "completed",
        "cards": [F1, H1, W1],
        "points": 100,
        "set": True,
        "level": 1,
        "build": 1,
    }
    assert describe(e, {A: "Patrick"}, None) == "Patrick completed a Level 1 set: 100 points."
    e = {"n": 3, "seat": A, "type": "game_over", "winners": [A], "scores": {A: 1000, B: 0}}
    assert describe(e, NAMES, B) == "Rebecca won with 1000 points."
