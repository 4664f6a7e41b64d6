"""The game side's paths under /accounts/ (config/urls.py, next to allauth's): the profile and
its forms, the devices for push, the e-mails' unsubscribe link. accounts/ has no pages of its
own but allauth's."""

from django.urls import path

from games.views import profile as views
from games.views import push, unsubscribe, vacation

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.create_token, name="token_create"),
    path("profile/bot/", views.make_bot, name="make_bot"),
    path("profile/tokens/<int:token_id>/revoke/", views.revoke_token, name="token_revoke"),
    path("profile/vacation/", vacation.vacation, name="vacation"),
    path("push/subscribe/", push.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push.unsubscribe, name="push_unsubscribe"),
    path("push/devices/<int:device_id>/remove/", push.remove_device, name="push_remove"),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
]
