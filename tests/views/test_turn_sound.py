"""Issue 25.3: the sound of a turn is the player's choice, off by default (a profile setting);
the page carries the sound's address only for a player who chose it."""

import pytest
from django.urls import reverse

from tests.support.games import client_for
from tests.support.pages import text

pytestmark = pytest.mark.django_db


def test_the_turn_sound_is_off_by_default_and_a_profile_setting(alice):
    client = client_for(alice)
    assert alice.turn_sound is False
    page = text(client.get(reverse("profile")))
    assert 'name="turn_sound"' in page
    assert "data-sound-url" not in page

    form = {
        "display_name": alice.display_name,
        "time_zone": alice.time_zone,
        "notify_turn": "on",
        "notify_reminder": "on",
        "notify_invitation": "on",
        "turn_sound": "on",
    }
    assert client.post(reverse("profile"), form).status_code == 302
    alice.refresh_from_db()
    assert alice.turn_sound is True
    assert 'data-sound-url="/static/turn' in text(client.get(reverse("lobby")))
