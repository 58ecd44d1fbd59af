"""Player profiles: the name, Play! Pokémon ID and birth date behind an account."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rules.errors import DomainError

from ..languages import supported
from ..models import Event, Player, Registration
from .registrations import division_of


@transaction.atomic
def save_profile(
    *,
    user,
    name: str,
    player_id: str,
    birth_date: date,
    email: str = "",
    language: str | None = None,
) -> Player:
    """Create or update the player profile of `user`, a signed-in account.

    Writes the `Player` linked to `user`, and copies `email` to the account too, since
    notifications are sent to the account's address. When the birth year changes, the
    player's registrations for events that have not started move to the new division
    (running and finished events keep the division they were played in). Raises
    `not-allowed` for an anonymous user and `duplicate-player-id` when another player holds
    the ID: a walk-in an organiser entered is linked to an account by the organiser, never
    claimed by typing its ID here.
    """
    if not user or not user.is_authenticated:
        raise DomainError("not-allowed", _("Sign in to edit your player profile."), status=403)
    name, player_id, email = name.strip(), player_id.strip(), email.strip()
    # One profile save per account at a time: the user row is the lock.
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    player = Player.objects.filter(user=user).first()
    taken = Player.objects.filter(player_id=player_id)
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    if taken.exists():
        raise _player_id_taken(player_id)
    old_year = player.birth_date.year if player is not None else None
    player = player or Player(user=user)
    player.name, player.player_id = name, player_id
    player.birth_date, player.email = birth_date, email
    if language is not None:  # "" is the browser's language; None leaves it as it is
        player.language = supported(language)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:  # another account took the ID a moment ago
        raise _player_id_taken(player_id) from exc
    email_field = user.get_email_field_name()
    if getattr(user, email_field) != email:
        setattr(user, email_field, email)
        user.save(update_fields=[email_field])
    if old_year is not None and old_year != birth_date.year:
        upcoming = Registration.objects.filter(
            player=player, event__status__in=(Event.Status.DRAFT, Event.Status.REGISTRATION)
        ).select_related("event__season")
        for registration in upcoming:
            division = division_of(player, registration.event)
            if registration.division != division:
                registration.division = division
                registration.save(update_fields=["division"])
    return player


def _player_id_taken(player_id: str) -> DomainError:
    return DomainError(
        "duplicate-player-id",
        _(
            "Player ID %(player_id)s is already taken by another player. Check the number; if "
            "it is yours, ask an organiser to link that player to your account."
        )
        % {"player_id": player_id},
        status=409,
    )
