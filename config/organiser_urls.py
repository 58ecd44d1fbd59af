"""Organiser pages beyond the dashboard: results grid, bracket, exports."""

from django.urls import path

from matches import views
from matches.views.mail import round_mail_retry

urlpatterns = [
    path(
        "events/<int:event_id>/rounds/<int:number>/results/",
        views.round_results,
        name="round-results",
    ),
    path(
        "matches/<int:match_id>/quick-result/",
        views.match_quick_result,
        name="match-result-quick",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/mail/retry/",
        round_mail_retry,
        name="round-mail-retry",
    ),
    path("events/<int:event_id>/bracket/", views.event_bracket, name="event-bracket"),
    path(
        "events/<int:event_id>/standings.csv",
        views.event_standings_csv,
        name="event-standings-csv",
    ),
    path("events/<int:event_id>/export.json", views.event_export_json, name="event-export-json"),
    path(
        "events/<int:event_id>/decklists.pdf",
        views.event_decklists_pdf,
        name="event-decklists-pdf",
    ),
    path(
        "events/<int:event_id>/decks/<int:registration_id>/sheet.pdf",
        views.deck_sheet_pdf,
        name="deck-sheet-pdf",
    ),
]
