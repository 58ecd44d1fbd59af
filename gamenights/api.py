"""The board-game night in the API, read-only: every game's tables, who sits where, and
each seat's finish (1: the winner). `GET /api/events/<id>/tables/`; a tournament, or an
event the user may not see, is "not found"."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from league import permissions
from league.models import Event
from league.public_record import public_name

from . import selectors
from .models import GameTable, Seat, Sitting


class SeatSerializer(serializers.ModelSerializer):
    player_name = serializers.SerializerMethodField(
        help_text=_("The public name: a minor's first name and initial")
    )

    def get_player_name(self, seat) -> str:
        return public_name(seat.registration.player)

    class Meta:
        model = Seat
        fields = ["seat", "registration", "player_name", "finish"]


class GameTableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    reported = serializers.BooleanField(read_only=True)

    class Meta:
        model = GameTable
        fields = ["id", "number", "reported", "reported_at", "seats"]


class SittingSerializer(serializers.ModelSerializer):
    tables = GameTableSerializer(many=True, read_only=True)

    class Meta:
        model = Sitting
        fields = ["number", "created_at", "tables"]


@extend_schema(responses=SittingSerializer(many=True))
@api_view(["GET"])
@permission_classes([AllowAny])
def event_tables(request, event_id: int):
    """A board-game night's games, each with its tables and seats (finish 1: the winner;
    2 and on only where the night keeps the full order, a house rule)."""
    event = get_object_or_404(
        permissions.visible_events(request.user, Event.objects.filter(kind=Event.Kind.BOARD_GAME)),
        pk=event_id,
    )
    return Response(SittingSerializer(selectors.sittings(event), many=True).data)
