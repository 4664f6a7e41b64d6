"""The Celery application: settings from Django's (CELERY_*), tasks autodiscovered in apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("geartable")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
