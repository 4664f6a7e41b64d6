from django.urls import path

from accounts import views
from games.views import unsubscribe, vacation

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", vacation.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
]
