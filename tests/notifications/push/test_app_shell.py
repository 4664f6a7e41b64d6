"""The installable app's parts served by Django (issue 26): the manifest, the service worker at
/ with its scope, the offline page; the pages offer push only with the site's keys. The
browser's side is tests/e2e/test_app_e2e.py."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_and_my_games():
    answer = Client().get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    data = answer.json()
    assert data["name"] == "Geartable" and data["short_name"]
    assert data["start_url"] == "/games/" and data["display"] == "standalone"
    assert data["theme_color"] == "#1a63d6" and data["background_color"] == "#f6f4ef"
    sizes = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert sizes == {(s, p) for s in ("192x192", "512x512") for p in ("any", "maskable")}
    for icon in data["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        head = Path(path).read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", head[16:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_for_the_whole_site():
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    assert answer["Content-Type"].startswith("text/javascript")
    body = answer.content.decode()
    assert re.search(r'const CACHE = "geartable-shell-[0-9a-f]{12}"', body)
    # The shell it caches: static files and the offline page, never a game's address.
    shell = re.search(r"const SHELL = (\[.*?\]);", body).group(1)
    assert "/offline/" in shell and "/static/css/site.css" in shell
    assert "/games/" not in shell and "/fragment/" not in shell and "/poll/" not in shell
    # The only cache.put/addAll is the shell's.
    assert body.count("cache.addAll(SHELL)") == 1 and "cache.put" not in body


def test_the_offline_page_carries_nothing_of_a_player(alice_client):
    answer = alice_client.get("/offline/")
    page = answer.content.decode()
    assert answer.status_code == 200 and "You are offline" in page
    assert "alice" not in page.lower() and "csrf" not in page.lower() and "<script" not in page


def test_pages_offer_push_only_with_the_keys_and_a_player(push_on, alice_client):
    page = alice_client.get("/lobby/").content.decode()
    assert 'data-push-key="' + push_on.VAPID_PUBLIC_KEY + '"' in page
    assert 'rel="manifest"' in page and "js/app.js" in page
    assert "data-push-key" not in Client().get("/lobby/").content.decode()
    push_on.VAPID_PUBLIC_KEY = push_on.VAPID_PRIVATE_KEY = ""
    assert "data-push-key" not in alice_client.get("/lobby/").content.decode()
