"""The REST API: every app's endpoints under /api/. The OpenAPI schema is at /api/schema/."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from decks import api as decks_api
from floor import api as floor_api
from gamenights import api as gamenights_api
from insights import api as insights_api
from league import api as league_api
from matches import api as matches_api
from matches import corrections_api
from webhooks import api as webhooks_api

router = DefaultRouter()
router.register("cards", decks_api.CardViewSet, basename="card")
router.register("formats", decks_api.FormatViewSet, basename="format")
router.register("leagues", league_api.LeagueViewSet, basename="league")
router.register("seasons", league_api.SeasonViewSet, basename="season")
router.register("events", league_api.EventViewSet, basename="event")
router.register("registrations", league_api.RegistrationViewSet, basename="registration")
router.register("rounds", matches_api.RoundViewSet, basename="round")
router.register("matches", matches_api.MatchViewSet, basename="match")
router.register("webhooks", webhooks_api.WebhookEndpointViewSet, basename="webhook")
router.register(
    "webhook-deliveries", webhooks_api.WebhookDeliveryViewSet, basename="webhook-delivery"
)

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
    path("events/<int:event_id>/overlay/", insights_api.event_overlay, name="api-event-overlay"),
    path("events/<int:event_id>/results/", insights_api.event_results, name="api-event-results"),
    path("matches/<int:match_id>/judge-calls/", floor_api.call_judge, name="api-call-judge"),
    path("matches/<int:match_id>/penalties/", floor_api.issue_penalty, name="api-issue-penalty"),
    path("matches/<int:match_id>/time-extensions/", floor_api.extend_time, name="api-extend-time"),
    path("events/<int:event_id>/judge-calls/", floor_api.event_judge_calls, name="api-judge-calls"),
    path("events/<int:event_id>/penalties/", floor_api.event_penalties, name="api-penalties"),
    path("judge-calls/<int:call_id>/take/", floor_api.take_call, name="api-take-call"),
    path("judge-calls/<int:call_id>/close/", floor_api.close_call, name="api-close-call"),
    path("me/penalties/", floor_api.my_penalties, name="api-my-penalties"),
    path("events/<int:event_id>/tables/", gamenights_api.event_tables, name="api-event-tables"),
    path(
        "rounds/<int:round_id>/corrections/",
        corrections_api.round_correction,
        name="api-round-correction",
    ),
    path("events/<int:event_id>/log/", corrections_api.event_log, name="api-event-log"),
    path(
        "registrations/<int:registration_id>/undo-drop/",
        corrections_api.undo_drop,
        name="api-undo-drop",
    ),
    path(
        "registrations/<int:registration_id>/undo-check-in/",
        corrections_api.undo_check_in,
        name="api-undo-check-in",
    ),
    path(
        "registrations/<int:registration_id>/seating/",
        corrections_api.seating,
        name="api-seating",
    ),
    path("", include(router.urls)),
]
