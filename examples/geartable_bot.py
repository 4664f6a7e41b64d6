#!/usr/bin/env python3
"""A Geartable bot to copy: Python's standard library only, one file.

It follows its account's stream (NDJSON, one JSON object per line) and, for every `yourTurn`,
reads the game and its legal actions and posts one of them with the game's version. It plays
Geared (a play that completes a bike first, else the play with most cards) and Out of Gears
(the program that harvests the junkyard worth most to its robots), as any seat of yours.

    GEARTABLE_URL=https://geartable.example GEARTABLE_TOKEN=gt_… python3 geartable_bot.py

Environment:
    GEARTABLE_URL         the site, e.g. https://geartable.example
    GEARTABLE_TOKEN       a personal access token with the scopes read and play (your profile)
    GEARTABLE_STREAM_URL  where the streams are answered, if not at GEARTABLE_URL (optional)
    GEARTABLE_BOT_GAMES   stop after this many of your games ended (optional; 0: never)

The calls it makes (docs/api.md): GET /api/v1/stream/account, GET /api/v1/games/{id},
GET /api/v1/games/{id}/legal, POST /api/v1/games/{id}/actions.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

API = "/api/v1"
# The stream sends a keep-alive line every 20 s: silence for this long means the connection
# is dead (a proxy or a network lost it without closing), and the bot reconnects.
SILENCE_SECONDS = 75
RECONNECT_SECONDS = (1, 60)  # the first wait before reconnecting, and the longest
TRIES = 5  # reads and posts of one turn before giving it up (the stream will say it again)


def say(*words) -> None:
    print(time.strftime("%H:%M:%S"), *words, file=sys.stderr, flush=True)


class Fatal(Exception):
    """Nothing to retry: the token is refused (revoked, expired, without a scope)."""


class Api:
    """The API's JSON calls, with the token; waits out a 429 (Retry-After) and tries again."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        while True:
            # main() accepts only an http(s) URL: no file: or other scheme reaches urlopen.
            request = urllib.request.Request(  # noqa: S310
                self.url + API + path, data=data, method=method, headers=headers
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
                    return answer.status, json.load(answer)
            except urllib.error.HTTPError as refused:
                try:
                    detail = json.load(refused)
                except ValueError:
                    detail = {"detail": refused.reason}
                if refused.code == 429:
                    wait = int(refused.headers.get("Retry-After") or 5)
                    say(f"too many calls: waiting {wait} s")
                    time.sleep(wait)
                    continue
                if refused.code == 401:
                    raise Fatal(detail.get("detail", refused.reason)) from None
                return refused.code, detail


# --- the strategies: from the view and the legal actions alone -------------------------------


def geared_choice(view: dict, actions: list[dict]) -> dict:
    """A play that completes a bike (three parts in one build), the more the better; else
    the play of most cards; an Action card or a discard only when nothing else is legal;
    never a rearrangement while anything else is (it does not end the turn)."""
    sizes = {b["id"]: b["size"] for b in view["players"][view["you"]]["builds"]}

    def worth(action: dict) -> tuple:
        if action["type"] == "rearrange":
            return (-1, 0)
        if action["type"] != "play":
            return (0, 0)
        into = Counter(action["builds"])
        bikes = sum(1 for build, n in into.items() if sizes.get(build, 0) + n >= 3)
        return (1 + bikes, len(action["cards"]))

    return max(actions, key=worth)  # max keeps the first of equals: the list's order


def outofgears_choice(view: dict, actions: list[dict]) -> dict:
    """The program whose harvests take the most gears, a gear of a robot's own colour
    counting twice; the first program when none harvests."""
    colours = {int(n): robot["colour"] for n, robot in view["robots"].items()}

    def worth(program: dict) -> int:
        total = 0
        for entry in program["programs"]:
            if entry["action"] == "harvest":
                gears = view["junkyards"].get(str(entry["number"]), [])
                total += sum(2 if g == colours[entry["robot"]] else 1 for g in gears)
        return total

    return max(actions, key=worth)


CHOICES = {"geared": geared_choice, "outofgears": outofgears_choice}


def play_turn(api: Api, game_id: int) -> None:
    """Read the game and its legal actions, post one with the version; on 409 (the game moved
    on meanwhile: another seat, a deadline) read again."""
    for _ in range(TRIES):
        status, legal = api.call("GET", f"/games/{game_id}/legal")
        if status != 200 or not legal["actions"]:
            return  # not (or no longer) our turn, or no such game
        status, game = api.call("GET", f"/games/{game_id}")
        if status != 200:
            return
        if game["version"] != legal["version"]:
            continue  # it moved between the two reads
        action = CHOICES[game["kind"]](game["view"], legal["actions"])
        status, answer = api.call(
            "POST", f"/games/{game_id}/actions", {"version": legal["version"], "action": action}
        )
        if status == 200:
            say(f"game {game_id} v{legal['version']}: played {json.dumps(action)}")
            return
        if status != 409:  # 400 an illegal action, 403 a suspension: say so, wait for the next
            say(f"game {game_id}: refused ({status}): {answer.get('detail')}")
            return
        say(f"game {game_id}: {answer.get('detail')} Reading it again.")


# --- the account stream ------------------------------------------------------------------------


def account_lines(stream_url: str, token: str):
    """The account stream's objects, one per line, until the server ends the stream (raises
    on a broken connection or a refusal)."""
    where = urllib.parse.urlsplit(stream_url)
    connection_class = (
        http.client.HTTPSConnection if where.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(where.hostname, where.port, timeout=SILENCE_SECONDS)
    try:
        connection.request(
            "GET",
            where.path.rstrip("/") + API + "/stream/account",
            headers={"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"},
        )
        answer = connection.getresponse()
        if answer.status in (401, 403):
            raise Fatal(json.loads(answer.read() or b"{}").get("detail", answer.reason))
        if answer.status != 200:
            wait = answer.getheader("Retry-After")
            raise ConnectionError(f"the stream answered {answer.status} (Retry-After: {wait})")
        say("following the account stream")
        while line := answer.readline():
            if line.strip():  # a bare line is the keep-alive
                yield json.loads(line)
    finally:
        connection.close()


def run(url: str, token: str, stream_url: str, games: int = 0) -> None:
    api = Api(url, token)
    wait = RECONNECT_SECONDS[0]
    ended = 0
    while True:
        try:
            for line in account_lines(stream_url, token):
                wait = RECONNECT_SECONDS[0]  # a healthy stream: back to a short wait
                game = line.get("game", {})
                if line["type"] == "yourTurn":
                    play_turn(api, game["id"])
                elif line["type"] == "gameOver":
                    ended += 1
                    say(f"game {game['id']} ({game['kind']}) is over")
                    if games and ended >= games:
                        return
                else:
                    say(f"{line['type']}: game {game.get('id')}")
            say("the server ended the stream")
        except (OSError, http.client.HTTPException, ValueError) as lost:
            say(f"stream lost ({lost!r})")
        # Reconnect: the stream's first lines are a yourTurn for every game waiting, so no
        # turn is missed meanwhile. Waits grow (with jitter) while the server stays away.
        say(f"reconnecting in about {wait} s")
        time.sleep(wait * random.uniform(0.5, 1.5))
        wait = min(wait * 2, RECONNECT_SECONDS[1])


def main() -> int:
    url, token = os.environ.get("GEARTABLE_URL"), os.environ.get("GEARTABLE_TOKEN")
    if not url or not token:
        print(__doc__, file=sys.stderr)
        return 2
    stream_url = os.environ.get("GEARTABLE_STREAM_URL") or url
    if not all(u.startswith(("http://", "https://")) for u in (url, stream_url)):
        print("GEARTABLE_URL (and GEARTABLE_STREAM_URL) start with https:// or http://.")
        return 2
    socket.setdefaulttimeout(SILENCE_SECONDS)
    try:
        run(url, token, stream_url, int(os.environ.get("GEARTABLE_BOT_GAMES") or 0))
    except Fatal as refused:
        say(f"the token is refused: {refused}")
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
