"""The personas' accounts: verified e-mail addresses, one password for all."""

from __future__ import annotations

PASSWORD = "correct-horse-battery-staple"


def make_user(django_user_model, username: str, **extra):
    from allauth.account.models import EmailAddress  # lazily: engine tests run without Django

    user = django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, **extra
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user
