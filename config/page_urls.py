"""The server-rendered pages (the site root and `home` are in `config.urls`)."""

from django.urls import include, path

from decks import views as deck_views
from league import views
from matches import views as match_views

urlpatterns = [
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path("leagues/<slug:slug>/events/new/", views.event_create, name="event-create"),
    path("leagues/<slug:slug>/staff/", views.league_staff, name="league-staff"),
    path("leagues/<slug:slug>/roster/", views.league_roster_setting, name="league-roster-setting"),
    path("leagues/<slug:slug>/calendar.ics", match_views.league_calendar, name="league-calendar"),
    path("calendar/<str:token>.ics", match_views.my_calendar, name="my-calendar"),
    path("events/<int:event_id>/edit/", views.event_edit, name="event-edit"),
    path("decks/check/", deck_views.deck_check, name="deck-check"),
    # Events and registrations
    path("events/<int:event_id>/", match_views.event_detail, name="event-detail"),
    path("events/", views.event_search, name="event-search"),
    path("events/<int:event_id>/roster/", views.event_roster, name="event-roster"),
    path("events/<int:event_id>/register/", views.event_register, name="event-register"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/drop/",
        views.registration_drop,
        name="registration-drop",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/check-in/",
        views.registration_check_in,
        name="registration-check-in",
    ),
    # Decklists
    path("events/<int:event_id>/deck/", views.deck_submit, name="deck-submit"),
    path("events/<int:event_id>/decks/", views.event_decks, name="event-decks"),
    path(
        "events/<int:event_id>/decks/<int:registration_id>/",
        views.event_deck_detail,
        name="event-deck-detail",
    ),
    path(
        "events/<int:event_id>/decks/<int:registration_id>/tcg-live.txt",
        views.event_deck_tcg_live,
        name="event-deck-tcg-live",
    ),
    # Running the event
    path("events/<int:event_id>/manage/", match_views.event_dashboard, name="event-dashboard"),
    path(
        "events/<int:event_id>/manage/pair/",
        match_views.pair_next_round,
        name="event-pair-next-round",
    ),
    path("events/<int:event_id>/standings/", match_views.event_standings, name="event-standings"),
    path("events/<int:event_id>/me.json", match_views.event_me, name="event-me"),
    path(
        "events/<int:event_id>/standings/<int:registration_id>/",
        match_views.standing_why,
        name="standing-why",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/",
        match_views.round_pairings,
        name="round-pairings",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/projector/",
        match_views.round_projector,
        name="round-projector",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/action/",
        match_views.round_action,
        name="round-action",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/correction/",
        match_views.round_correction,
        name="round-correction",
    ),
    path("events/<int:event_id>/log/", views.event_log, name="event-log"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/undo/",
        views.registration_undo,
        name="registration-undo",
    ),
    # Paper for the venue (staff): the wall lists, match slips, standings (matches.paper)
    path(
        "events/<int:event_id>/rounds/<int:number>/print/<slug:kind>.pdf",
        match_views.round_paper,
        name="round-paper",
    ),
    path(
        "events/<int:event_id>/standings/print.pdf",
        match_views.standings_paper,
        name="standings-paper",
    ),
    # Matches
    path("matches/<int:match_id>/", match_views.match_detail, name="match-detail"),
    path("matches/<int:match_id>/report/", match_views.match_report, name="match-report"),
    path("matches/<int:match_id>/result/", match_views.match_result, name="match-result"),
    path("", include("floor.urls")),
    path("", include("gamenights.urls")),
    path("", include("config.account_urls")),
    path("", include("config.organiser_urls")),
    path("", include("insights.urls")),
]
