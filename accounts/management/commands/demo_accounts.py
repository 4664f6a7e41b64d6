"""Create the demo accounts for `make run`: alice, bob, carol and an admin (idempotent)."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_USERS = [
    ("alice", "Alice", False),
    ("bob", "Bob", False),
    ("carol", "Carol", False),
    ("admin", "Admin", True),
]


class Command(BaseCommand):
    help = "Create demo accounts (alice, bob, carol, admin) with one known password."

    def handle(self, *args, **options):
        password = settings.GEARTABLE_DEMO_PASSWORD
        created = []
        for username, display_name, staff in DEMO_USERS:
            email = f"{username}@example.com"
            user, new = User.objects.get_or_create(
                username=username,
                defaults={
                    "email": email,
                    "display_name": display_name,
                    "is_staff": staff,
                    "is_superuser": staff,
                },
            )
            if new:
                user.set_password(password)
                user.save(update_fields=["password"])
                EmailAddress.objects.get_or_create(
                    user=user, email=email, defaults={"verified": True, "primary": True}
                )
                created.append(username)
        names = ", ".join(u for u, _, _ in DEMO_USERS)
        self.stdout.write(
            f"Demo accounts: {names} — password: {password}"
            + (f" (created {', '.join(created)})" if created else "")
        )
        site = settings.SITE_URL  # make run's port (config/settings.py)
        self.stdout.write(f"Open {site}/ (admin: {site}/admin/; live updates pushed, Ctrl-C stops)")
