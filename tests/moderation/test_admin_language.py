"""Issue 37: the admin's own pages (the dashboard, the outbox, the moderation forms) in the
moderator's language, Django's own admin words in it too (its catalogs).

Needs the Italian catalog with this area's translations applied."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.games import client_for
from tests.support.users import make_user

pytestmark = pytest.mark.django_db


def moderator_speaking(django_user_model, name: str, language: str):
    user = make_user(django_user_model, name, is_staff=True, is_superuser=True)
    user.language = language
    user.save(update_fields=["language"])
    return client_for(user)


def test_each_moderator_reads_the_outbox_and_the_dashboard_in_their_language(django_user_model):
    italian = moderator_speaking(django_user_model, "moderatore", "it")
    english = moderator_speaking(django_user_model, "moderator", "en")
    page = italian.get(reverse("admin:outbox")).content.decode()
    assert "E-mail in attesa" in page and "Posta in uscita" in page and "Esegui" in page
    page = english.get(reverse("admin:outbox")).content.decode()
    assert "E-mails waiting" in page and "Outbox" in page and "Do it" in page
    page = italian.get(reverse("admin:index")).content.decode()
    assert "In breve" in page and "Partite in corso" in page and "Moderazione di Geartable" in page
    page = english.get(reverse("admin:index")).content.decode()
    assert "At a glance" in page and "Geartable moderation" in page


def test_a_moderation_form_is_in_the_moderators_language(django_user_model, geared_game):
    italian = moderator_speaking(django_user_model, "moderatore", "it")
    url = reverse("admin:games_game_moderate", args=[geared_game.pk])
    page = italian.get(url).content.decode()
    assert "Interrompi la partita (i giocatori vengono avvisati)" in page
    assert "Applica" in page
    done = italian.post(url, {"action": "extend", "hours": 2, "reason": "festa"}, follow=True)
    assert "Fatto: Proroga la scadenza attuale." in done.content.decode()
