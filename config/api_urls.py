"""The REST API: every app's endpoints under /api/. The OpenAPI schema is at /api/schema/."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from decks import api as decks_api
from gamenights import api as gamenights_api
from league import api as league_api
from matches import api as matches_api

router = DefaultRouter()
router.register("cards", decks_api.CardViewSet, basename="card")
router.register("formats", decks_api.FormatViewSet, basename="format")
router.register("leagues", league_api.LeagueViewSet, basename="league")
router.register("seasons", league_api.SeasonViewSet, basename="season")
router.register("events", league_api.EventViewSet, basename="event")
router.register("registrations", league_api.RegistrationViewSet, basename="registration")
router.register("rounds", matches_api.RoundViewSet, basename="round")
router.register("matches", matches_api.MatchViewSet, basename="match")

urlpatterns = [
    path("decks/check/", decks_api.check_deck, name="api-check-deck"),
    path(
        "events/<int:event_id>/pair-next-round/",
        matches_api.pair_next_round,
        name="api-pair-next-round",
    ),
    path(
        "events/<int:event_id>/standings/", matches_api.event_standings, name="api-event-standings"
    ),
    path("events/<int:event_id>/tables/", gamenights_api.event_tables, name="api-event-tables"),
    path("", include(router.urls)),
]
