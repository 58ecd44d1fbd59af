"""The floor pages (included by `config.page_urls`)."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:event_id>/floor/", views.floor_queue, name="floor-queue"),
    path("events/<int:event_id>/floor/pick/", views.pick_tables, name="floor-pick-tables"),
    path("floor/calls/<int:call_id>/take/", views.call_take, name="floor-call-take"),
    path("floor/calls/<int:call_id>/close/", views.call_close, name="floor-call-close"),
    path("matches/<int:match_id>/call-judge/", views.call_judge, name="floor-call-judge"),
    path("matches/<int:match_id>/floor/", views.match_floor, name="floor-match"),
    path("matches/<int:match_id>/deck-check/", views.deck_check, name="floor-deck-check"),
    path("me/penalties/", views.my_penalties, name="my-penalties"),
]
