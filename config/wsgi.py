import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.middleware import guard_wsgi  # noqa: E402 - needs the settings module set

application = guard_wsgi(get_wsgi_application())
