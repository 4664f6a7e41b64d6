"""`{% vacation_pause game as paused %}`: who a game waits for while they are on vacation."""

from django import template

from games.vacation import away_seats

register = template.Library()


@register.simple_tag
def vacation_pause(game) -> list[dict]:
    return away_seats(game)
