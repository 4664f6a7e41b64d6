import secrets

from django.db import migrations, models

import accounts.models


def fill_mail_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.filter(mail_key__isnull=True).only("pk"):
        user.mail_key = secrets.token_urlsafe(12)
        user.save(update_fields=["mail_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_email_suppression"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="mail_key",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(fill_mail_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="mail_key",
            field=models.CharField(
                default=accounts.models.new_mail_key,
                editable=False,
                help_text="Names the user in e-mail links instead of their id.",
                max_length=24,
                unique=True,
            ),
        ),
    ]
