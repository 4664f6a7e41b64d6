from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, beat): games.effects queues
        # them by name, so that the write path imports no task module.
        from accounts import game_side
        from games import tasks  # noqa: F401
        from games.live import cache as live
        from games.models import BotKind, Game, Seat, shown
        from games.reads import players

        # What an account's rules ask of play (accounts/game_side.py): accounts imports
        # nothing of games.
        game_side.register(bot_names=tuple(BotKind.labels), has_played=players.has_played)

        # The live check's cached state (games/live/cache.py) follows every saved game, and its
        # grant every saved user and seat.
        post_save.connect(live.game_saved, sender=Game, dispatch_uid="live-game")
        shown.connect(live.game_shown, sender=Game, dispatch_uid="live-game-shown")
        post_save.connect(live.user_saved, sender="accounts.User", dispatch_uid="live-user")
        post_delete.connect(live.user_deleted, sender="accounts.User", dispatch_uid="live-user")
        post_save.connect(live.seat_saved, sender=Seat, dispatch_uid="live-seat")
        post_delete.connect(live.seat_deleted, sender=Seat, dispatch_uid="live-seat")
        # An API token revoked ends its NDJSON streams (games/api/streams.py).
        post_save.connect(live.token_changed, sender="accounts.ApiToken", dispatch_uid="live-token")
        post_delete.connect(
            live.token_changed, sender="accounts.ApiToken", dispatch_uid="live-token"
        )
