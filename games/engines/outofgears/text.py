"""Who controls each robot, for the story's sentences (pure; no Django). The sentences are
written at the edge, in the reader's language (games/pages/outofgears_text.py)."""

from __future__ import annotations


def robot_names(view: dict, seat_names: dict[str, str]) -> dict[str, str]:
    """Robot number (a string, as in the view) -> the name of the seat that controls it: the
    site's seat names, not the names frozen in the state at the start (a bot may have taken a
    seat over since)."""
    return {
        key: seat_names.get(r["seat"]) or r.get("player") or "" for key, r in view["robots"].items()
    }
