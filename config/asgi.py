import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.middleware import guard_asgi  # noqa: E402 - needs the settings module set

application = guard_asgi(get_asgi_application())
