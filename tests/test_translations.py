"""The site in the player's language (issue 37; docs/i18n.md): the catalogs kept whole, and the
language chosen by the switch, the profile, the sign-up or the browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

LOCALE = Path(settings.BASE_DIR, "locale")
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def _catalogs(root: Path, language: str) -> dict[str, polib.POFile]:
    folder = root / language / "LC_MESSAGES"
    return {po.stem: polib.pofile(str(po)) for po in sorted(folder.glob("*.po"))}


def _ids(catalog: polib.POFile) -> set[tuple]:
    return {(e.msgctxt, e.msgid, e.msgid_plural) for e in catalog if not e.obsolete}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_offered_language_is_translated_whole(language):
    """Only fully translated languages are offered: no entry untranslated, none fuzzy (a
    guess msgmerge made, which a translator has not checked), none obsolete."""
    catalogs = _catalogs(LOCALE, language)
    assert "django" in catalogs
    for domain, catalog in catalogs.items():
        missing = [e.msgid for e in catalog.untranslated_entries()]
        fuzzy = [e.msgid for e in catalog.fuzzy_entries()]
        obsolete = [e.msgid for e in catalog.obsolete_entries()]
        assert (domain, missing, fuzzy, obsolete) == (domain, [], [], [])


def test_extracting_the_strings_again_changes_no_catalog(tmp_path):
    """Every string marked in the code is in the catalogs, and nothing else is: a string
    marked, changed or removed without `make messages` fails here."""
    fresh = tmp_path / "locale"
    shutil.copytree(LOCALE, fresh, ignore=shutil.ignore_patterns("*.mo"))
    with override_settings(LOCALE_PATHS=[fresh]):
        call_command("makemessages", all=True, verbosity=0)
        call_command("makemessages", all=True, domain="djangojs", verbosity=0)
    for language in TRANSLATED:
        before, after = _catalogs(LOCALE, language), _catalogs(fresh, language)
        assert sorted(after) == sorted(before)
        for domain in before:
            assert _ids(after[domain]) - _ids(before[domain]) == set(), "new strings"
            assert _ids(before[domain]) - _ids(after[domain]) == set(), "strings gone"


def test_the_catalogs_compile_with_their_placeholders_checked(tmp_path):
    """msgfmt --check-format refuses a translation whose %(name)s placeholders differ from
    its English (a page would raise a KeyError, or drop a value)."""
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        result = subprocess.run(
            [
                shutil.which("msgfmt") or "/usr/bin/msgfmt",
                "--check-format",
                f"--output-file={tmp_path / 'out.mo'}",
                str(po),
            ],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stderr


def test_a_visitor_reads_the_site_in_their_browsers_language(client, db):
    answer = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5")
    assert answer["Content-Language"] == "it"
    assert "Accept-Language" in answer["Vary"]
    html = answer.content.decode()
    assert '<html lang="it">' in html
    assert "Le mie partite" not in html  # a visitor has no games
    assert ">Regole<" in html and ">Accedi<" in html
    english = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert ">Log in<" in english.content.decode()


def test_a_language_the_site_does_not_offer_falls_back_to_english(client, db):
    answer = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert answer["Content-Language"] == "en"


def test_the_switch_sets_a_visitors_language_and_goes_back(client, db):
    answer = client.post(reverse("set_language"), {"language": "it", "next": "/rules/"})
    assert answer.status_code == 302 and answer["Location"] == "/rules/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")
    assert ">Regole<" in page.content.decode()  # the choice wins over the browser


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_the_switch_goes_back_only_to_this_site(client, db, back):
    answer = client.post(reverse("set_language"), {"language": "it", "next": back})
    assert answer.status_code == 302 and answer["Location"] == "/"


@pytest.mark.parametrize("language", ["", "de", "xx", "it\x00", "en-us" * 50])
def test_the_switch_refuses_a_language_not_offered_and_changes_nothing(client, alice, language):
    client.force_login(alice)
    answer = client.post(reverse("set_language"), {"language": language, "next": "/"})
    assert answer.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    alice.refresh_from_db()
    assert alice.language == "en"


def test_a_players_choice_follows_them_to_every_browser(client, alice, django_user_model):
    """Chosen with the switch, kept on the profile: another browser (another session, an
    English Accept-Language, no cookie) shows the site in Italian once they log in."""
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "it", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "it"
    other = type(client)()
    other.force_login(alice)
    page = other.get(reverse("my_games"), HTTP_ACCEPT_LANGUAGE="en-US,en")
    assert page["Content-Language"] == "it"
    assert "Le mie partite" in page.content.decode()


def test_the_profile_sets_the_language(client, alice):
    client.force_login(alice)
    form = client.get(reverse("profile")).context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data.update(language="it", time_zone=alice.time_zone, display_name="Alice")
    answer = client.post(reverse("profile"), data, follow=True)
    alice.refresh_from_db()
    assert alice.language == "it"
    assert answer["Content-Language"] == "it"


GIULIA_SIGNS_UP = {
    "username": "giulia",
    "email": "giulia@example.com",
    "password1": "a long pass phrase 42",
    "password2": "a long pass phrase 42",
    "time_zone": "Europe/Rome",
}


def test_a_sign_up_keeps_the_language_the_page_was_shown_in(client, db, django_user_model):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    client.post(
        reverse("account_signup"),
        GIULIA_SIGNS_UP,
    )
    assert django_user_model.objects.get(username="giulia").language == "it"


# docs/i18n.md's glossary: an English term of the games, and what each Italian entry that
# contains it must contain (a stem: "ingranaggio", "ingranaggi").
GLOSSARY_IT = {
    "Frame": "telai",
    "Handlebars": "manubri",
    "Wheels": "ruot",
    "junkyard": "discaric",
    "junkyards": "discaric",
    "gear": "ingranagg",
    "gears": "ingranagg",
    "Harvest": "raccolt",
    "Trap": "trappol",
    "Wild": "jolly",
    "rematch": "rivincit",
}


def test_the_italian_catalog_uses_the_glossarys_words():
    """A player meets one word for one thing: every Italian entry whose English names a term of
    the glossary uses its Italian (Out of Gears, the game's name, aside)."""
    catalog = _catalogs(LOCALE, "it")["django"]
    found = []
    for entry in catalog:
        english = re.sub(r"%\(\w+\)s", "", entry.msgid.replace("Out of Gears", ""))
        italian = (entry.msgstr or " ".join(entry.msgstr_plural.values())).lower()
        italian = italian.replace("\u00ad", "")  # a soft hyphen: where a card may break it
        for term, stem in GLOSSARY_IT.items():
            if re.search(rf"\b{term}\b", english) and stem not in italian:
                found.append(f"{term} → {stem}: {entry.msgid!r} = {italian!r}")
    assert found == []


def test_37_giulia_signs_up_in_italian_and_plays_both_games_to_the_end_with_bob(client, bob):
    """Issue 37's story: a new Italian player signs up from an Italian browser and plays a
    whole Geared and a whole Out of Gears game with an English friend; each reads the pages,
    the log, the e-mails and the pushes in their own language."""
    from django.core import mail

    from accounts.models import User
    from games.models import Notification
    from games.notifications import email
    from games.notifications.push_delivery import push_payload
    from tests.support.games import client_for, finished_geared, finished_oog

    client.post(
        reverse("account_signup"),
        GIULIA_SIGNS_UP,
        HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5",
    )
    giulia = User.objects.get(username="giulia")
    assert giulia.language == "it"
    games = [finished_geared(giulia, bob), finished_oog(giulia, bob)]
    reads = {
        giulia: ("it", "Cronaca completa", "Cronaca della partita"),
        bob: ("en", "Full log", "Game log"),
    }
    for user, (language, log_link, word) in reads.items():
        pages = client_for(user)
        for game in games:
            page = pages.get(game.get_absolute_url()).content.decode()
            assert f'<html lang="{language}">' in page and log_link in page
            log = pages.get(reverse("game_log", args=[game.pk])).content.decode()
            assert f'<html lang="{language}">' in log and word in log
    notes = list(Notification.objects.filter(game__in=games).select_related("user", "game"))
    assert {note.user for note in notes} == {giulia, bob}
    italian = ("Tocca a te", "Partita finita", "risolto")
    english = ("Your turn", "Game over", "resolved")
    for note in notes:
        title = push_payload(note)["title"]
        mine, theirs = (italian, english) if note.user == giulia else (english, italian)
        assert any(w in title for w in mine) and not any(w in title for w in theirs), title
        email.deliver(note.pk)
    assert len(mail.outbox) >= 4
    for message in mail.outbox:
        mine, theirs = (italian, english) if message.to == [giulia.email] else (english, italian)
        assert any(w in message.subject for w in mine), message.subject
        assert not any(w in message.subject for w in theirs), message.subject
