"""Bots are numbered 1, 2, 3… within a game (Seat.bot_number), whatever their seat position."""

from django.db import migrations, models


def number_existing_bots(apps, schema_editor):
    """Number the bots of existing games in the order they were seated; a bot that took a
    player's seat over keeps 0 (it is named after that player)."""
    Seat = apps.get_model("games", "Seat")
    counts: dict[int, int] = {}
    changed = []
    bots = Seat.objects.exclude(bot="").filter(replaced_user__isnull=True).order_by("game", "pk")
    for seat in bots.only("pk", "game_id"):
        counts[seat.game_id] = counts.get(seat.game_id, 0) + 1
        seat.bot_number = counts[seat.game_id]
        changed.append(seat)
    Seat.objects.bulk_update(changed, ["bot_number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("games", "0009_ratings")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_number",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(number_existing_bots, migrations.RunPython.noop),
    ]
