"""A player's own penalties, across every event."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from league.models import Player

from .. import selectors


@login_required
def my_penalties(request):
    players = list(Player.objects.filter(user=request.user))
    history = selectors.penalty_history(players, own=True)
    rows = [row for p in players for row in history[p.pk]]
    return render(request, "floor/my_penalties.html", {"rows": rows})
