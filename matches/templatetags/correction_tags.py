"""`{% corrections_panel event round %}`: the scorekeeper's corrections on the round page
(undo the round, swap, seat a late arrival, move a table, pair by hand, a bye; fixed and
feature tables), shown to staff with `pair-rounds` while the round is the current one."""

from django import template

from league.models import Registration
from league.view_helpers import can
from matches.models import Round
from matches.services import ACTIVE

register = template.Library()


@register.inclusion_tag("matches/_corrections.html", takes_context=True)
def corrections_panel(context, event, round_):
    request = context.get("request")
    if request is None or not can(request, event, "pair-rounds"):
        return {"show": False}
    last = Round.objects.filter(event=event).order_by("-number").values_list("pk", flat=True)
    if round_.status == Round.Status.CLOSED or last.first() != round_.pk:
        return {"show": False}
    matches = list(
        round_.matches.select_related("player_a__player", "player_b__player").order_by(
            "division", "table"
        )
    )
    seated = []
    for m in matches:
        for reg in (m.player_a, m.player_b):
            if reg is not None:
                seated.append({"pk": reg.pk, "name": reg.player.name, "table": m.table})
    seated.sort(key=lambda s: s["name"].casefold())
    taken = {s["pk"] for s in seated}
    unseated = [
        r
        for r in Registration.objects.filter(event=event, status__in=ACTIVE)
        .select_related("player")
        .order_by("player__name")
        if r.pk not in taken
    ]
    return {
        "show": True,
        "event": event,
        "round": round_,
        "seated": seated,
        "unseated": unseated,
        "fixed": Registration.objects.filter(event=event, fixed_table__isnull=False)
        .select_related("player")
        .order_by("fixed_table"),
        "csrf_token": context.get("csrf_token"),
        "swiss": round_.stage == Round.Stage.SWISS,
    }
