from django.urls import path

from games.views import chat, game, invitations, lobby, my_games, players, records, table

urlpatterns = [
    path("lobby/", lobby.lobby, name="lobby"),
    path("lobby/new/", lobby.create, name="create_game"),
    path("games/", my_games.my_games, name="my_games"),
    path("games/finished/", my_games.finished_games, name="finished_games"),
    path("games/<int:game_id>/", game.game_page, name="game"),
    path("games/<int:game_id>/fragment/", game.game_fragment, name="game_fragment"),
    path("games/<int:game_id>/poll/", game.poll, name="game_poll"),
    path("games/<int:game_id>/move/", game.move, name="game_move"),
    path("games/<int:game_id>/log/", game.game_log, name="game_log"),
    path("games/<int:game_id>/replay/", records.game_replay, name="game_replay"),
    path("games/<int:game_id>/record.json", records.export, name="game_record"),
    path("games/import/", records.import_record, name="import_record"),
    path("games/<int:game_id>/join/", table.join, name="game_join"),
    path("games/<int:game_id>/leave/", table.leave, name="game_leave"),
    path("games/<int:game_id>/start/", table.start, name="game_start"),
    path("games/<int:game_id>/invite/", table.invite, name="game_invite"),
    path("games/<int:game_id>/resign/", table.resign, name="game_resign"),
    path("games/<int:game_id>/rematch/", table.rematch, name="game_rematch"),
    path("games/<int:game_id>/chat/", chat.chat, name="game_chat"),
    path(
        "games/<int:game_id>/chat/<int:message_id>/report/",
        chat.chat_report,
        name="chat_report",
    ),
    path("players/<str:username>/", players.player, name="player"),
    path("players/<str:username>/follow/", players.follow, name="player_follow"),
    path("bots/<str:bot>/", players.bot, name="bot_player"),
    path("invitations/<str:token>/", invitations.accept_invitation, name="accept_invitation"),
    path(
        "invitations/<str:token>/decline/",
        invitations.decline_invitation,
        name="decline_invitation",
    ),
]
