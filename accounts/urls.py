from django.urls import path

from accounts import push_views, views
from games.views import unsubscribe, vacation

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", vacation.vacation, name="vacation"),
    path("push/subscribe/", push_views.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.unsubscribe, name="push_unsubscribe"),
    path("push/devices/<int:device_id>/remove/", push_views.remove_device, name="push_remove"),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
]
