"""The insights pages: the stream overlay, the metagame, a player's rounds, QR codes."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:event_id>/overlay/", views.event_overlay, name="event-overlay"),
    path("events/<int:event_id>/manage/stream/", views.event_stream, name="event-stream"),
    path("events/<int:event_id>/metagame/", views.event_metagame, name="event-metagame"),
    path("events/<int:event_id>/results/", views.event_results, name="event-results"),
    path(
        "events/<int:event_id>/players/<int:registration_id>/",
        views.player_rounds,
        name="player-rounds",
    ),
    path(
        "events/<int:event_id>/players/<int:registration_id>/archetype/",
        views.archetype_edit,
        name="archetype-edit",
    ),
    path("leagues/<slug:slug>/archetypes/", views.archetype_rules, name="archetype-rules"),
    path("players/<int:player_id>/", views.player_page, name="player-page"),
    path("events/<int:event_id>/poster/", views.event_poster, name="event-poster"),
    path("events/<int:event_id>/my-code/", views.my_code, name="my-code"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/card/",
        views.registration_card,
        name="registration-card",
    ),
]
