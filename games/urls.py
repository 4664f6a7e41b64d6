from django.urls import path

from games import views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("games/", views.my_games, name="my_games"),
]
