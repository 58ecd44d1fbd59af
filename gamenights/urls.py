"""The board-game night's pages (included by `config.page_urls`)."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:event_id>/night/", views.night, name="gamenight"),
    path("events/<int:event_id>/night/seat/", views.night_seat, name="gamenight-seat"),
    path("events/<int:event_id>/night/finish/", views.night_finish, name="gamenight-finish"),
    path("tables/<int:table_id>/report/", views.table_report, name="gamenight-table"),
]
