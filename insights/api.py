"""The overlay's JSON feed, for the overlay page itself and for people who build their own."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from league import permissions
from league.models import Event
from league.params import parse_number
from rules.errors import DomainError

from . import selectors


class OverlayCardSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    name = serializers.CharField()


class OverlayPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    record = serializers.CharField(help_text=gettext_lazy("Wins-losses-ties before this round"))
    games = serializers.IntegerField(help_text=gettext_lazy("Games won in this match"))
    archetype = serializers.CharField(
        help_text=gettext_lazy("Empty until the event's lists are public")
    )
    pokemon = OverlayCardSerializer(
        many=True, help_text=gettext_lazy("The list's Pokémon, once public")
    )


class OverlaySerializer(serializers.Serializer):
    event = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    stage = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    featured = serializers.BooleanField()
    now = serializers.DateTimeField(
        help_text=gettext_lazy("The server's time, to run the clock from")
    )
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text=gettext_lazy(
            "When time is called at this table: the round's end plus its extensions"
        ),
    )
    extra_minutes = serializers.IntegerField(
        help_text=gettext_lazy("The table's time extensions, in minutes")
    )
    final = serializers.BooleanField(help_text=gettext_lazy("The result stands: the clock stops"))
    status = serializers.CharField()
    result = serializers.CharField(
        help_text=gettext_lazy('"a", "b", "tie", "double_loss" or empty')
    )
    decklists_public = serializers.BooleanField()
    players = OverlayPlayerSerializer(
        many=True, help_text=gettext_lazy("Player A then player B; empty when no match")
    )


@extend_schema(
    parameters=[
        OpenApiParameter(
            "table",
            int,
            required=False,
            description=gettext_lazy("A table (default: the feature match)"),
        )
    ],
    responses=OverlaySerializer,
)
@api_view(["GET"])
@permission_classes([AllowAny])
def event_overlay(request, event_id: int):
    """The stream overlay's data for a table of the newest public round (or the feature
    match): the two players, their records, the game score, the round clock, and their
    decks once the event's lists are public."""
    event = get_object_or_404(
        permissions.visible_events(request.user, Event.objects.select_related("season__league")),
        pk=event_id,
    )
    raw = request.query_params.get("table", "")
    table = parse_number(raw, lo=1, hi=99999)
    if raw and table is None:
        return Response(
            {"code": "table-invalid", "detail": "table must be a table number."},
            status=status.HTTP_400_BAD_REQUEST,
        )
    data = selectors.overlay_data(event, table)
    response = Response(OverlaySerializer(data).data)
    response["Cache-Control"] = "no-store"
    return response


class ResultRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    registration = serializers.IntegerField()
    player = serializers.CharField()
    division = serializers.CharField()
    reached = serializers.CharField(
        help_text=gettext_lazy('"Winner", "Final", "Top 4", ...; "" below the cut')
    )
    record = serializers.CharField(help_text=gettext_lazy("Swiss W-L-T"))
    points = serializers.IntegerField(help_text=gettext_lazy("Swiss match points"))
    dropped = serializers.BooleanField()
    archetype = serializers.CharField(
        help_text=gettext_lazy("Empty until the player's list is public")
    )
    deck = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The registration whose public list to read, else null"),
    )


@extend_schema(responses=ResultRowSerializer(many=True))
@api_view(["GET"])
@permission_classes([AllowAny])
def event_results(request, event_id: int):
    """A finished event's final results: places after the top cut, Swiss records and
    points, and archetypes of the lists the event's decklist phase has made public. 404
    before the event is finished."""
    event = get_object_or_404(
        permissions.visible_events(request.user, Event.objects.select_related("season__league")),
        pk=event_id,
    )
    rows = selectors.results_with_decks(event)
    if not rows:
        raise DomainError(
            "not-found", _("The event is not finished yet: no final results."), status=404
        )
    return Response(ResultRowSerializer(rows, many=True).data)
