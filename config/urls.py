from django.contrib import admin
from django.urls import include, path

from games.api import calls as api
from games.views import app, site

urlpatterns = [
    path("", site.home, name="home"),
    path("favicon.ico", site.favicon),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service_worker"),
    path("offline/", app.offline, name="offline"),
    path("healthz/", site.healthz, name="healthz"),
    path("rules/", site.rules, name="rules"),
    path("language/", site.set_language, name="set_language"),
    path("rules/<slug:game>/", site.rules_game, name="rules_game"),
    path("accounts/", include("games.account_urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/docs", api.docs, name="api_docs"),
    path("api/v1/", api.api.urls),
    path("", include("games.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.forbidden"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
