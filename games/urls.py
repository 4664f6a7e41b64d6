from django.urls import path

from games import views, views_players, views_records

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/new/", views.create, name="create_game"),
    path("games/", views.my_games, name="my_games"),
    path("games/finished/", views.finished_games, name="finished_games"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/fragment/", views.game_fragment, name="game_fragment"),
    path("games/<int:game_id>/poll/", views.poll, name="game_poll"),
    path("games/<int:game_id>/move/", views.move, name="game_move"),
    path("games/<int:game_id>/log/", views.game_log, name="game_log"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/record.json", views_records.export, name="game_record"),
    path("games/import/", views_records.import_record, name="import_record"),
    path("games/<int:game_id>/join/", views.join, name="game_join"),
    path("games/<int:game_id>/leave/", views.leave, name="game_leave"),
    path("games/<int:game_id>/start/", views.start, name="game_start"),
    path("games/<int:game_id>/invite/", views.invite, name="game_invite"),
    path("games/<int:game_id>/resign/", views.resign, name="game_resign"),
    path("games/<int:game_id>/rematch/", views.rematch, name="game_rematch"),
    path("games/<int:game_id>/chat/", views.chat, name="game_chat"),
    path(
        "games/<int:game_id>/chat/<int:message_id>/report/",
        views.chat_report,
        name="chat_report",
    ),
    path("players/<str:username>/", views_players.player, name="player"),
    path("bots/<str:bot>/", views_players.bot, name="bot_player"),
    path("invitations/<str:token>/", views.accept_invitation, name="accept_invitation"),
    path("invitations/<str:token>/decline/", views.decline_invitation, name="decline_invitation"),
]
