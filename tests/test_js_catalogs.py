"""Issue 37: the words of the site's scripts (static/js) come from Django's djangojs catalog,
served as a static file per language (games/management/commands/js_catalogs.py, written by
`make catalogs` and by the tests' conftest), so that the Content-Security-Policy keeps allowing
the site's own files only; templates/_js_catalog.html is the frame's <script> for the page's
language.

`test_the_italian_catalog_says_your_turn_in_italian` reads the Italian djangojs catalog
(locale/it/LC_MESSAGES/djangojs.po, written out by `make catalogs` or the tests' conftest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games.management.commands.js_catalogs import FOLDER, catalog, write_catalogs

BASE = Path(settings.BASE_DIR)


def test_each_offered_language_has_its_catalog_file():
    for language, _ in settings.LANGUAGES:
        path = FOLDER / f"{language}.js"
        assert path.is_file(), path
        assert path.read_bytes() == catalog(language)  # up to date with the compiled catalogs


def test_writing_again_changes_no_file(tmp_path):
    assert len(write_catalogs(tmp_path)) == len(settings.LANGUAGES)
    assert write_catalogs(tmp_path) == []


@pytest.mark.django_db
def test_the_catalog_is_served_as_a_static_file_and_the_csp_is_unchanged():
    client = Client()
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            tag = render_to_string("_js_catalog.html")
        src = tag.split('src="', 1)[1].split('"', 1)[0]
        assert src.startswith(settings.STATIC_URL if "://" in settings.STATIC_URL else "/static/")
        assert f"js/i18n/{language}" in src and " defer" in tag, tag
        answer = client.get(src)
        assert answer.status_code == 200, src
        assert "javascript" in answer["Content-Type"]
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        assert b"django.gettext = function" in body and b"globals.interpolate" in body
    page = client.get("/rules/")
    policy = page["Content-Security-Policy"]
    script_src = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
    assert script_src.split()[:2] == ["script-src", "'self'"], policy
    assert "unsafe" not in policy and "jsi18n" not in policy


def test_the_scripts_say_your_turn_with_the_frames_own_msgid():
    """The badge the frame draws ("Your turn · N") and the one geartable.js redraws share one
    msgid, so a player reads the same words before and after a live update."""
    frame = (BASE / "templates" / "base.html").read_text()
    assert "{% blocktranslate with count=nav_your_turn %}Your turn · {{ count }}" in frame
    script = (BASE / "static" / "js" / "geartable.js").read_text()
    assert 'gettext("Your turn \\u00b7 %(count)s")' in script


def test_the_scripts_fall_back_to_english_without_the_catalog():
    for name in ("geartable.js", "app.js"):
        script = (BASE / "static" / "js" / name).read_text()
        assert "const gettext = window.gettext || function (text) { return text; };" in script


def test_the_italian_catalog_says_your_turn_in_italian():
    italian = (FOLDER / "it.js").read_text()
    assert '"Your turn \\u00b7 %(count)s": "Tocca a te \\u00b7 %(count)s"' in italian or (
        '"Your turn · %(count)s": "Tocca a te · %(count)s"' in italian
    ), italian[:2000]
