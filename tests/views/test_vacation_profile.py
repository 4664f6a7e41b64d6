"""Vacation on the profile (docs/vacation.md): set a date, change it, end it early, and every
refusal — each a sentence with the right status and nothing changed; the allowance counted
per calendar year, the days taken only."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse, reverse_lazy
from django.utils import timezone

from accounts.models import Vacation
from games import vacation_dates as rules
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

URL = reverse_lazy("vacation")


def today() -> date:
    return timezone.now().astimezone(UTC).date()  # the personas live in UTC


def stored(user) -> tuple:
    user.refresh_from_db()
    return (user.away_until, user.away_ends, list(Vacation.objects.filter(user=user).values()))


def days_in_this_year(first: date, last: date) -> int:
    return sum(
        1 for i in range((last - first).days + 1) if (first + timedelta(days=i)).year == first.year
    )


def test_it_sets_a_vacation_and_the_profile_shows_it(alice):
    client = client_for(alice)
    until = today() + timedelta(days=6)
    response = client.post(URL, {"action": "set", "until": until.isoformat()})
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    alice.refresh_from_db()
    assert alice.away_until == until
    assert alice.away_ends == datetime.combine(until + timedelta(days=1), datetime.min.time(), UTC)
    assert alice.is_away
    row = Vacation.objects.get(user=alice)
    assert (row.first_day, row.last_day, row.ended) == (today(), until, None)
    page = client.get(reverse("profile")).content.decode()
    assert f"You are away until {until.day} {until:%b %Y}" in page
    left = 30 - days_in_this_year(today(), until)
    assert f"{left} of 30 vacation days left in {today().year}" in page
    assert "I am back: end my vacation now" in page


def test_it_counts_in_the_players_own_time_zone(alice):
    alice.time_zone = "Pacific/Kiritimati"  # UTC+14: often already tomorrow there
    alice.save(update_fields=["time_zone"])
    local = timezone.now().astimezone(rules._zone(alice)).date()
    response = client_for(alice).post(URL, {"action": "set", "until": local.isoformat()})
    assert response.status_code == 302
    alice.refresh_from_db()
    back = datetime.combine(local + timedelta(days=1), datetime.min.time(), rules._zone(alice))
    assert alice.away_ends == back


def refused(client, user, data: dict, status: int, sentence: str) -> None:
    before = stored(user)
    response = client.post(URL, data)
    assert response.status_code == status
    assert sentence in response.content.decode()
    assert stored(user) == before, "a refusal changes nothing"


def test_it_refuses_a_date_in_the_past(alice):
    yesterday = today() - timedelta(days=1)
    refused(
        client_for(alice),
        alice,
        {"action": "set", "until": yesterday.isoformat()},
        400,
        "That date is in the past: choose today or a later day.",
    )


def test_it_refuses_a_vacation_longer_than_the_maximum(alice):
    too_far = today() + timedelta(days=30)  # 31 days with today
    refused(
        client_for(alice),
        alice,
        {"action": "set", "until": too_far.isoformat()},
        400,
        "A vacation can be at most 30 days long",
    )


def test_it_refuses_a_date_far_in_the_future_at_once(alice):
    refused(
        client_for(alice),
        alice,
        {"action": "set", "until": "9999-12-31"},
        400,
        "A vacation can be at most 30 days long",
    )


def test_it_refuses_more_than_the_allowance_left(alice):
    year = today().year
    # 30 days of this year already taken, none of them today.
    first = date(year, 12, 1) if today().month <= 6 else date(year, 1, 1)
    Vacation.objects.create(
        user=alice,
        first_day=first,
        last_day=first + timedelta(days=29),
        started=timezone.now(),
        ends=timezone.now(),
        ended=timezone.now(),
    )
    client = client_for(alice)
    refused(
        client,
        alice,
        {"action": "set", "until": today().isoformat()},
        400,
        f"That is more than your vacation days left in {year}: 0 of 30.",
    )
    assert (
        f"0 of 30 vacation days left in {year}" in client.get(reverse("profile")).content.decode()
    )


@pytest.mark.parametrize("until", ["tomorrow", "2026-02-30", ""])
def test_it_refuses_a_malformed_date(alice, until):
    sentence = "Choose the last day you are away." if not until else "Give the date as YYYY-MM-DD."
    refused(client_for(alice), alice, {"action": "set", "until": until}, 400, sentence)


def test_it_refuses_an_unknown_action(alice):
    refused(client_for(alice), alice, {"action": "sleep"}, 400, "Choose to set a vacation or")


def test_it_refuses_when_vacations_are_turned_off(alice, settings):
    settings.GEARTABLE_VACATION_DAYS_PER_YEAR = 0
    refused(
        client_for(alice),
        alice,
        {"action": "set", "until": today().isoformat()},
        400,
        "Vacations are turned off on this site.",
    )


def test_a_suspended_player_cannot_go_on_vacation(alice):
    alice.suspended = True
    alice.save(update_fields=["suspended"])
    refused(
        client_for(alice),
        alice,
        {"action": "set", "until": today().isoformat()},
        403,
        "Your account is suspended: you cannot take a vacation.",
    )


def test_ending_a_vacation_that_is_not_on_is_a_conflict(alice):
    refused(client_for(alice), alice, {"action": "end"}, 409, "You are not on vacation.")


def test_it_rejects_get_and_strangers(client, alice):
    assert client_for(alice).get(URL).status_code == 405
    response = client.post(URL, {"action": "set", "until": today().isoformat()})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Vacation.objects.exists()


def test_ending_early_gives_back_the_days_not_reached(alice):
    client = client_for(alice)
    client.post(URL, {"action": "set", "until": (today() + timedelta(days=9)).isoformat()})
    response = client.post(URL, {"action": "end"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.away_until, alice.away_ends, alice.is_away) == (None, None, False)
    row = Vacation.objects.get(user=alice)
    assert (row.first_day, row.last_day) == (today(), today()) and row.ended is not None
    assert rules.allowance(alice).used == 1, "only the day it was on counts"
    page = client.get(reverse("profile")).content.decode()
    assert "29 of 30 vacation days left" in page and "Go on vacation" in page


def test_a_new_date_while_away_replaces_the_old_one(alice):
    client = client_for(alice)
    client.post(URL, {"action": "set", "until": (today() + timedelta(days=20)).isoformat()})
    sooner = today() + timedelta(days=2)
    assert client.post(URL, {"action": "set", "until": sooner.isoformat()}).status_code == 302
    row = Vacation.objects.get(user=alice)  # the same stretch, not a second one
    assert (row.first_day, row.last_day) == (today(), sooner)
    alice.refresh_from_db()
    assert alice.away_until == sooner


# --- the allowance, with fixed dates -------------------------------------------------------------


def at(day: date, hour: int = 12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def test_days_count_in_the_calendar_year_they_fall_in(alice):
    rules.start(alice, date(2030, 1, 4), now=at(date(2029, 12, 28)))
    assert len(rules.days_away(alice, 2029)) == 4  # 28–31 Dec
    assert len(rules.days_away(alice, 2030)) == 4  # 1–4 Jan
    assert rules.allowance(alice, now=at(date(2030, 2, 1))).left == 26


def test_a_day_is_counted_once_however_often_one_goes_away_on_it(alice):
    day = date(2031, 3, 10)
    rules.start(alice, day + timedelta(days=3), now=at(day, 9))
    rules.end(alice, now=at(day, 10))
    rules.start(alice, day + timedelta(days=1), now=at(day, 11))
    rules.end(alice, now=at(day + timedelta(days=1), 8))
    assert sorted(rules.days_away(alice, 2031)) == [day, day + timedelta(days=1)]


def test_the_allowance_is_the_sum_of_the_years_stretches(alice, settings):
    settings.GEARTABLE_VACATION_DAYS_PER_YEAR = 10
    rules.start(alice, date(2032, 5, 6), now=at(date(2032, 5, 1)))  # 6 days
    rules.end(alice, now=at(date(2032, 5, 6), 20))
    assert rules.allowance(alice, now=at(date(2032, 6, 1))).left == 4
    assert rules.latest_return(alice, now=at(date(2032, 6, 1))) == date(2032, 6, 4)
    with pytest.raises(rules.VacationError, match="left in 2032: 4 of 10"):
        rules.start(alice, date(2032, 6, 5), now=at(date(2032, 6, 1)))
    rules.start(alice, date(2032, 6, 4), now=at(date(2032, 6, 1)))
    assert rules.allowance(alice, now=at(date(2032, 6, 1))).left == 0
