"""Issue 37.6: no word a player reads escapes translation. A pseudo-language wraps every
translated string in ⟦…⟧ (Django's catalogs, allauth's and ours alike); a whole Geared game and
a whole Out of Gears game are played, and every page, fragment, log, e-mail and push their
players get is read with the wrapped parts taken out: what is left must be the players' own
data (names, numbers), never an English word that was not marked for translation.

The rules' own texts are not catalog entries but a file per language (games/rules/it/, whose
rule ids tests/reads/test_rules_languages.py checks against the English): the pseudo-language
has none, so their pages are left out here; their frame and quick starts are in the catalog."""

from __future__ import annotations

import gettext as gettext_module
import re
from html.parser import HTMLParser

import pytest
from django.core import mail
from django.urls import reverse
from django.utils.translation import trans_real

from games.models import Notification
from games.notifications import email as game_email
from games.notifications.push_delivery import push_payload
from tests.support.games import (
    advance,
    advance_to_turn_of,
    client_for,
    finished_geared,
    finished_oog,
    start_geared,
    start_oog,
)
from tests.support.users import make_user
from tests.views.helpers import every_page

pytestmark = pytest.mark.django_db

PSEUDO = "xx"
OPEN, CLOSE = "\u27e6", "\u27e7"
INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[^\W\d_]{2,}")


class _Pseudo(trans_real.DjangoTranslation):
    """Every string of every catalog, wrapped: what a page shows outside the wraps was never
    translated."""

    def __init__(self):
        gettext_module.NullTranslations.__init__(self)
        self._DjangoTranslation__language = PSEUDO
        self._DjangoTranslation__to_language = PSEUDO
        self.plural = lambda n: int(n != 1)

    def gettext(self, message):
        message = message.split(trans_real.CONTEXT_SEPARATOR)[-1]
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular, plural, number):
        return self.gettext(singular if number == 1 else plural)


@pytest.fixture
def pseudo(settings):
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    trans_real._translations[PSEUDO] = _Pseudo()
    yield PSEUDO
    trans_real._translations.pop(PSEUDO, None)


class _Visible(HTMLParser):
    """The text a person reads: text outside scripts and styles, and the attributes shown or
    spoken (title, aria-label, alt, placeholder, a button's value)."""

    SPOKEN = ("title", "aria-label", "alt", "placeholder", "aria-description")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.skip += 1
        found = dict(attrs)
        self.parts += [found[name] or "" for name in self.SPOKEN if name in found]
        if tag == "input" and found.get("type") in ("submit", "button"):
            self.parts.append(found.get("value") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def untranslated(body: str, allowed: set[str], *, html: bool = True) -> set[str]:
    """The words of `body` outside every ⟦…⟧, but the allowed ones (the players' names…)."""
    body = re.sub(r'<select name="time_zone".*?</select>', " ", body, flags=re.S)
    body = re.sub(
        f"https?://[^\\s{OPEN}{CLOSE}]+", " ", body
    )  # links (an e-mail's text part): not words
    while True:
        taken = INNERMOST.sub(" ", body)
        if taken == body:
            break
        body = taken
    if html:
        reader = _Visible()
        reader.feed(body)
        body = " ".join(reader.parts)
    return {w for w in WORD.findall(body) if w.lower() not in allowed}


def _allowed(*users) -> set[str]:
    names = {"geartable", "english", "italiano", "pseudo", "utc", "example", "com", "http"}
    for user in users:
        names |= {user.username.lower(), user.name.lower()}
    return names


def _pages(client, game) -> list[str]:
    urls = [
        game.get_absolute_url(),
        reverse("game_fragment", args=[game.pk]),
        reverse("game_log", args=[game.pk]),
        reverse("my_games"),
        reverse("lobby"),
        reverse("profile"),
        reverse("rules"),
        reverse("home"),
    ]
    if not game.is_active:
        urls.append(reverse("game_replay", args=[game.pk]))
    return urls


def _found(client, urls, allowed) -> dict[str, set[str]]:
    found = {}
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        words = untranslated(answer.content.decode(), allowed)
        if words:
            found[url] = words
    return found


def _mail_words(users, allowed) -> dict[str, set[str]]:
    """Every e-mail and push the game owed its players, drawn as the worker draws them."""
    found: dict[str, set[str]] = {}
    for note in Notification.objects.filter(user__in=users).select_related("user", "game"):
        payload = push_payload(note)
        words = untranslated(f"{payload['title']} {payload['body']}", allowed, html=False)
        if words:
            found[f"push {note.kind}"] = words
        game_email.deliver(note.pk)
    for message in mail.outbox:
        words = untranslated(message.subject + "\n" + message.body, allowed, html=False)
        words |= untranslated(message.alternatives[0][0], allowed)
        if words:
            found[f"e-mail {message.subject[:40]}"] = words
    return found


def _report(found: dict[str, set[str]]) -> str:
    return "untranslated words:\n" + "\n".join(
        f"{place}: {' '.join(sorted(words))}" for place, words in sorted(found.items())
    )


def test_37_6_every_word_of_a_whole_geared_game_is_translated(pseudo, alice, bob, carol):
    for user in (alice, bob):
        type(user).objects.filter(pk=user.pk).update(language=PSEUDO)
        user.refresh_from_db()
    playing = advance(start_geared([alice, carol], target=1000), 8)
    playing = advance_to_turn_of(playing, alice)
    game = finished_geared(alice, bob)
    allowed = _allowed(alice, bob, carol)
    client = client_for(alice)
    # The game in play: its page, fragment, every selection two taps deep, every preview of
    # a legal play (when it is hers), the log.
    urls = [url for url, _body in every_page(client, playing)]
    urls.append(reverse("player", args=[bob.username]))
    found = _found(client, _pages(client, game) + urls, allowed)
    found |= _mail_words([alice, bob], allowed)
    assert found == {}, _report(found)


def test_37_6_every_word_of_a_whole_out_of_gears_game_is_translated(pseudo, alice):
    type(alice).objects.filter(pk=alice.pk).update(language=PSEUDO)
    alice.refresh_from_db()
    game = finished_oog(alice)
    bob = make_user(type(alice), "bob", display_name="Bob")
    playing = start_oog([alice, bob])  # her program form, the table in play
    allowed = _allowed(alice, bob) | {"greedy", "bot"}
    client = client_for(alice)
    urls = _pages(client, playing)[:3]
    found = _found(client, _pages(client, game) + urls, allowed)
    found |= _mail_words([alice], allowed)
    assert found == {}, _report(found)


def test_the_pseudo_language_finds_an_unmarked_word(pseudo, alice):
    """The check itself: a marked sentence is taken out, an unmarked one is found."""
    allowed = _allowed(alice)
    assert untranslated(f"<p>{OPEN}Your turn{CLOSE} · 3 alice</p>", allowed) == set()
    assert untranslated("<p title='Resign the game'>ok</p>", allowed) == {
        "Resign",
        "the",
        "game",
        "ok",
    }
    assert untranslated(f"<b>{OPEN}a {OPEN}Wheels{CLOSE} b{CLOSE}</b> wheels", allowed) == {
        "wheels"
    }
