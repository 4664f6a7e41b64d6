"""`make run`'s ASGI application (config/run_settings.py): the site and its streams, with the
static files served in front of Django by its own ASGI static handler (WhiteNoise's middleware
is sync only: one sync middleware puts every request of an ASGI process through async_to_sync,
see config/run_settings.py)."""

import os

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.run_settings")

from config.middleware import guard_asgi  # noqa: E402 - needs the settings module set

application = guard_asgi(ASGIStaticFilesHandler(get_asgi_application()))
