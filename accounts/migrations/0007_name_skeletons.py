"""The names' skeletons (accounts/names.py), so that a look-alike of another player's username
is found by index (issue 22); filled for the users there are."""

from django.db import migrations, models

from accounts.names import skeleton


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username", "display_name").iterator(chunk_size=1000):
        User.objects.filter(pk=user.pk).update(
            username_key=skeleton(user.username), display_key=skeleton(user.display_name)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_vacation"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=160),
        ),
        migrations.AddField(
            model_name="user",
            name="display_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=160),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
