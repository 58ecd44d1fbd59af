"""Pages of the league app, one module per screen group:

- `leagues`: the home page, a league's page, creating and editing an event;
- `registrations`: registering, checking in, dropping;
- `decklists`: the player's deck page, the staff's decklists, one player's list;
- `accounts`: sign-up and the player profile;
- `staff`: the league's staff page (organisers, judges, scorekeepers);
- `roster`: who is registered for an event (public names, divisions);
- `discover`: the events search (league, format, dates, status), paginated.

Views are thin: they load rows, check who may look with `league.permissions`, call one
service and redirect with a message; `league.view_helpers.show_error` turns a `DomainError`
into the page's message. The event page, the dashboard, pairings, standings, matches and
the player's history need rounds, so they live in `matches.views`.
"""

from .accounts import password_reset, profile, profile_tokens, signup
from .decklists import deck_submit, event_deck_detail, event_deck_tcg_live, event_decks
from .discover import event_search
from .eventlog import event_log, registration_undo
from .leagues import event_create, event_edit, home, league_detail
from .public_profile import profile_public
from .registrations import event_register, registration_check_in, registration_drop
from .roster import event_roster, league_roster_setting
from .staff import league_staff

__all__ = [
    "deck_submit",
    "event_create",
    "event_deck_detail",
    "event_deck_tcg_live",
    "event_decks",
    "event_edit",
    "event_log",
    "event_register",
    "event_roster",
    "event_search",
    "home",
    "league_detail",
    "league_roster_setting",
    "league_staff",
    "password_reset",
    "profile",
    "profile_public",
    "profile_tokens",
    "registration_check_in",
    "registration_drop",
    "registration_undo",
    "signup",
]
