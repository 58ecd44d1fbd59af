"""The staff of a league and its events: adding and removing organisers, judges and
scorekeepers (the staff page, the API and the admin use these).

Organisers are the league's `organisers` (league-wide only); judges and scorekeepers are
`StaffRole` rows for the whole league or one of its events. What each role may do is
`permissions.ROLE_ACTIONS`. Only the league's organisers (and superusers) change the
staff, and a league always keeps one organiser.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.errors import DomainError

from .. import permissions
from ..models import Event, League, StaffRole

#: The roles the staff page offers, in its order.
ROLES = (
    (StaffRole.Role.JUDGE.value, StaffRole.Role.JUDGE.label),
    (StaffRole.Role.SCOREKEEPER.value, StaffRole.Role.SCOREKEEPER.label),
    (permissions.ORGANISER, gettext_lazy("Organiser")),
)


@dataclass(frozen=True)
class StaffMember:
    """One line of a league's staff list: an organiser (`role_id` None) or a role."""

    user_id: int
    username: str
    role: str
    event_id: int | None = None
    event_name: str = ""
    role_id: int | None = None

    @property
    def role_label(self) -> str:
        return dict(ROLES).get(self.role, self.role)


def staff_of(league: League) -> list[StaffMember]:
    """The league's organisers, then its judges and scorekeepers (league-wide first)."""
    rows = [
        StaffMember(user_id=u.pk, username=u.get_username(), role=permissions.ORGANISER)
        for u in league.organisers.order_by("username")
    ]
    roles = StaffRole.objects.filter(league=league).select_related("user", "event")
    rows += sorted(
        (
            StaffMember(
                user_id=r.user_id,
                username=r.user.get_username(),
                role=r.role,
                event_id=r.event_id,
                event_name=r.event.name if r.event else "",
                role_id=r.pk,
            )
            for r in roles
        ),
        key=lambda m: (m.event_id is not None, m.event_name, m.role, m.username),
    )
    return rows


def _require_organiser(by_user, league: League) -> None:
    if not permissions.is_league_organiser(by_user, league):
        raise DomainError(
            "not-allowed", _("Only the league's organisers can change its staff."), status=403
        )


@transaction.atomic
def add_staff(
    *, league: League, by_user, username: str, role: str, event: Event | None = None
) -> StaffMember:
    """Give the account `username` a role in the league (or at `event`, one of its
    events). Writes the organiser link or one `StaffRole`. Raises `not-allowed`,
    `unknown-user`, `invalid-staff-role` (an unknown role, an event of another league, or
    an organiser for one event only), `already-staff`."""
    _require_organiser(by_user, league)
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise DomainError(
            "unknown-user",
            _("No account is called %(username)s.") % {"username": repr(username.strip())},
        )
    if event is not None and event.season.league_id != league.pk:
        raise DomainError(
            "invalid-staff-role",
            _("%(event)s is not an event of %(league)s.") % {"event": event, "league": league},
        )
    if role == permissions.ORGANISER:
        if event is not None:
            raise DomainError(
                "invalid-staff-role",
                _(
                    "Organisers run the whole league: leave the event empty, or choose judge or "
                    "scorekeeper for one event."
                ),
            )
        if league.organisers.filter(pk=user.pk).exists():
            raise _already(user, permissions.ORGANISER)
        league.organisers.add(user)
        return StaffMember(user_id=user.pk, username=user.get_username(), role=role)
    if role not in StaffRole.Role.values:
        raise DomainError(
            "invalid-staff-role", _("Unknown staff role %(role)s.") % {"role": repr(role)}
        )
    try:
        with transaction.atomic():
            row = StaffRole.objects.create(
                league=league, event=event, user=user, role=role, added_by=by_user
            )
    except IntegrityError as exc:
        raise _already(user, role) from exc
    return StaffMember(
        user_id=user.pk,
        username=user.get_username(),
        role=role,
        event_id=event.pk if event else None,
        event_name=event.name if event else "",
        role_id=row.pk,
    )


def _already(user, role: str) -> DomainError:
    """`already-staff`, one sentence a role (word order differs by language)."""
    if role == permissions.ORGANISER:
        message = _("%(user)s is already an organiser.")
    elif role == StaffRole.Role.JUDGE:
        message = _("%(user)s is already a judge there.")
    else:
        message = _("%(user)s is already a scorekeeper there.")
    return DomainError("already-staff", message % {"user": user.get_username()}, status=409)


@transaction.atomic
def remove_staff(
    *, league: League, by_user, role_id: int | None = None, organiser_id: int | None = None
) -> None:
    """Remove a judge or scorekeeper role (`role_id`) or an organiser (`organiser_id`).
    Raises `not-allowed`, `not-found`, `last-organiser` (a league keeps one organiser)."""
    _require_organiser(by_user, league)
    if role_id is not None:
        deleted, _rows = StaffRole.objects.filter(league=league, pk=role_id).delete()
        if not deleted:
            raise DomainError("not-found", _("No such staff role."), status=404)
        return
    League.objects.select_for_update().filter(pk=league.pk).first()  # one removal at a time
    if not league.organisers.filter(pk=organiser_id).exists():
        raise DomainError("not-found", _("No such organiser."), status=404)
    if league.organisers.count() <= 1:
        raise DomainError(
            "last-organiser",
            _("A league keeps at least one organiser: add another first."),
            status=409,
        )
    league.organisers.remove(organiser_id)
