from django.contrib import admin
from django.urls import include, path

from games import views_site

urlpatterns = [
    path("", views_site.home, name="home"),
    path("favicon.ico", views_site.favicon),
    path("healthz/", views_site.healthz, name="healthz"),
    path("rules/", views_site.rules, name="rules"),
    path("rules/<slug:game>/", views_site.rules_game, name="rules_game"),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]

handler400 = "config.errors.bad_request"
