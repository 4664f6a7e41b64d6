"""The API as a client meets it: tokens made through accounts/tokens.py, clients that send
them, moves chosen and posted from the API's answers alone, and the check that an answer hides
what the asker may not see."""

from __future__ import annotations

import json
import random
import re

from django.http import HttpResponse
from django.test import Client

from accounts import tokens
from games import engines
from games.engines.geared.bots import greedy_bot
from games.models import Game

API = "/api/v1"


def token_for(user, scopes=("read", "play"), days: int = 30, name: str = "test") -> str:
    return tokens.create(user, name, scopes, days).token


def api_client(token: str | None) -> Client:
    """A client that sends `token` with every call (and no session: it never logged in)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(headers=headers, enforce_csrf_checks=True)


def api_seat(game: Game, user) -> str:
    return game.seats.get(user=user).seat_id


def api_mover(game: Game, users):
    seat = engines.engine(game.kind).to_act(game.state)
    return next(u for u in users if api_seat(game, u) in seat)


def api_greedy(client: Client, game_id: int, salt: int = 0) -> tuple[int, dict]:
    """What a bot would play, from the API's answers alone."""
    seen = client.get(f"{API}/games/{game_id}").json()
    legal = client.get(f"{API}/games/{game_id}/legal").json()
    assert legal["version"] == seen["version"]
    action = greedy_bot(seen["view"], legal["actions"], random.Random(f"{game_id}:{salt}"))
    return seen["version"], action


def post_action(client: Client, game_id: int, version: int, action) -> HttpResponse:
    """POST one action at `version`, as a bot would: the answer, for the caller to check."""
    return client.post(
        f"{API}/games/{game_id}/actions",
        {"version": version, "action": action},
        content_type="application/json",
    )


def api_card_ids(data) -> set[int]:
    """Every Geared card an answer names: card objects, and the ids of `cards` lists."""
    found: set[int] = set()
    if isinstance(data, dict):
        if data.get("kind") in ("part", "action") and isinstance(data.get("id"), int):
            found.add(data["id"])
        for key, value in data.items():
            if key == "cards" and isinstance(value, list):
                found |= {c for c in value if isinstance(c, int)}
            found |= api_card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= api_card_ids(value)
    return found


def assert_api_hides(text: str, game: Game, me: str | None, where: str) -> None:
    state = game.state
    assert str(game.seed) not in text, where
    assert not re.search(r"\b(seed|rng)\b", text, re.I), where
    if game.kind == "geared":
        hidden = set(state["draw"])
        for seat in state["seats"]:
            if seat != me:
                hidden |= set(state["hands"][seat])
        shown = api_card_ids(json.loads(text))
        assert not shown & hidden, (where, sorted(shown & hidden))
        if len(state["draw"]) > 1:
            assert json.dumps(state["draw"])[1:-1] not in text, where  # the draw order
    else:
        for seat, mine in state["programs"].items():
            if seat != me:
                for entry in mine:
                    assert json.dumps(entry) not in text, where
        assert json.dumps(state["reserve"]) not in text, where
