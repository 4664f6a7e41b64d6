from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, beat): games.effects queues
        # them by name, so that the write path imports no task module.
        from games import tasks  # noqa: F401
