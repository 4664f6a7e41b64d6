from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_game_vacation_exempt"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="paused_left",
            field=models.DurationField(blank=True, editable=False, null=True),
        ),
    ]
