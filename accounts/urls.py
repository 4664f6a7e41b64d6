from django.urls import path

from accounts import views, views_vacation

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views_vacation.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
