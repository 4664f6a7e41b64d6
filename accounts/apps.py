from django.apps import AppConfig
from django.db.models.signals import post_save


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import names
        from accounts.models import User

        post_save.connect(names.keep_skeletons, sender=User, dispatch_uid="name-skeletons")
