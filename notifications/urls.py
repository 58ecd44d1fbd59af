from django.urls import path

from . import views

urlpatterns = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/read/", views.mark_read, name="inbox-mark-read"),
    path("inbox/preferences/", views.preferences, name="notification-preferences"),
    path("inbox/unsubscribe/<str:token>/", views.unsubscribe, name="notification-unsubscribe"),
]
