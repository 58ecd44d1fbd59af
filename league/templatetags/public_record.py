"""`{{ registration.player|public_name }}`: the name a public page shows for a player (a
minor's first name and initial, `league.public_record.public_name`)."""

from django import template

from ..public_record import public_name as _public_name

register = template.Library()


@register.filter
def public_name(player) -> str:
    return _public_name(player) if player is not None else ""
