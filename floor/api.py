"""API of the floor tools: judge calls (a player calls at their match; staff list, take and
close), penalties (staff issue and list; a player reads their own) and time extensions.
Every staff answer asks `league.permissions.can` with the action, as the pages do."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league import permissions
from league.models import Event, Player
from matches.models import Match
from rules import penalties

from . import selectors, services
from .models import JudgeCall, Penalty


class JudgeCallSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="match.table", read_only=True)
    round_number = serializers.IntegerField(source="match.round.number", read_only=True)
    player = serializers.CharField(source="registration.player.name", read_only=True)
    taken_by = serializers.StringRelatedField()
    closed_by = serializers.StringRelatedField()

    class Meta:
        model = JudgeCall
        fields = [
            "id",
            "event",
            "match",
            "table",
            "round_number",
            "player",
            "reason",
            "status",
            "created_at",
            "taken_by",
            "taken_at",
            "closed_by",
            "closed_at",
            "note",
        ]


class JudgeCallInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=services.MAX_REASON)


class CloseCallInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class PenaltySerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    event_name = serializers.CharField(source="event.name", read_only=True)
    round_number = serializers.IntegerField(
        source="round.number", read_only=True, default=None, allow_null=True
    )
    table = serializers.IntegerField(
        source="match.table", read_only=True, default=None, allow_null=True
    )
    judge = serializers.StringRelatedField(allow_null=True)

    class Meta:
        model = Penalty
        fields = [
            "id",
            "event",
            "event_name",
            "round_number",
            "match",
            "table",
            "registration",
            "player",
            "player_name",
            "infraction",
            "penalty",
            "prizes",
            "note",
            "judge",
            "created_at",
            "result_changed",
        ]


class PenaltyInputSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=["a", "b"])
    infraction = serializers.ChoiceField(choices=penalties.INFRACTIONS)
    penalty = serializers.ChoiceField(choices=penalties.PENALTIES)
    prizes = serializers.IntegerField(
        min_value=1, max_value=penalties.MAX_PRIZES, required=False, allow_null=True
    )
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ExtensionInputSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=services.MAX_EXTENSION_MINUTES)
    reason = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class ExtensionSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="pk")
    table = serializers.IntegerField()
    extra_minutes = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True)


def _match(user, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__event__season__league", "player_a__player", "player_b__player"
        ),
        pk=match_id,
    )
    if not permissions.can_view_event(user, match.round.event):
        raise NotFound()
    return match


def _event_for(user, event_id: int, action: str) -> Event:
    event = get_object_or_404(
        permissions.visible_events(user, Event.objects.select_related("season__league")),
        pk=event_id,
    )
    if not permissions.can(user, event, action):
        raise PermissionDenied(_("Only the event's judges can do this."))
    return event


def _call(call_id: int) -> JudgeCall:
    return get_object_or_404(
        JudgeCall.objects.select_related("event__season__league", "match__round"), pk=call_id
    )


@extend_schema(request=JudgeCallInputSerializer, responses={201: JudgeCallSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def call_judge(request, match_id: int):
    """A player calls a judge to their own table with a one-line reason."""
    data = JudgeCallInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    call = services.call_judge(
        match=_match(request.user, match_id),
        by_user=request.user,
        reason=data.validated_data["reason"],
    )
    return Response(JudgeCallSerializer(call).data, status=status.HTTP_201_CREATED)


@extend_schema(
    parameters=[OpenApiParameter("status", str, enum=["open", "closed"], required=False)],
    responses=JudgeCallSerializer(many=True),
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def event_judge_calls(request, event_id: int):
    """The event's judge calls (staff): open and taken ones oldest first, or `?status=closed`."""
    event = _event_for(request.user, event_id, "judge-calls")
    if request.query_params.get("status") == "closed":
        calls = selectors.closed_calls(event, limit=200)
    else:
        calls = selectors.open_calls(event)
    return Response(JudgeCallSerializer(calls, many=True).data)


@extend_schema(request=None, responses=JudgeCallSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def take_call(request, call_id: int):
    """A judge takes a call; `call-taken` (409) when another judge took it first."""
    call = _call(call_id)
    if not permissions.can_view_event(request.user, call.event):
        raise NotFound()
    return Response(JudgeCallSerializer(services.take_call(call=call, by_user=request.user)).data)


@extend_schema(request=CloseCallInputSerializer, responses=JudgeCallSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def close_call(request, call_id: int):
    """A judge closes a call with a note."""
    call = _call(call_id)
    if not permissions.can_view_event(request.user, call.event):
        raise NotFound()
    data = CloseCallInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    call = services.close_call(call=call, by_user=request.user, note=data.validated_data["note"])
    return Response(JudgeCallSerializer(call).data)


@extend_schema(request=PenaltyInputSerializer, responses={201: PenaltySerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def issue_penalty(request, match_id: int):
    """A judge penalises a player of this match; a game or match loss changes the result."""
    data = PenaltyInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    made = services.issue_penalty(
        match=_match(request.user, match_id), by_user=request.user, **data.validated_data
    )
    return Response(PenaltySerializer(made).data, status=status.HTTP_201_CREATED)


@extend_schema(request=ExtensionInputSerializer, responses=ExtensionSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def extend_time(request, match_id: int):
    """A judge gives this table extra minutes; time is called from the table's own end."""
    data = ExtensionInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    match = services.extend_time(
        match=_match(request.user, match_id), by_user=request.user, **data.validated_data
    )
    return Response(ExtensionSerializer(match).data)


@extend_schema(responses=PenaltySerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def event_penalties(request, event_id: int):
    """The event's penalties (staff)."""
    event = _event_for(request.user, event_id, "penalties")
    return Response(PenaltySerializer(selectors.event_penalties(event), many=True).data)


@extend_schema(responses=PenaltySerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def my_penalties(request):
    """The signed-in player's own penalties, across every event."""
    rows = Penalty.objects.filter(player__in=Player.objects.filter(user=request.user))
    rows = rows.select_related("player", "event", "round", "match", "judge").order_by("-created_at")
    return Response(PenaltySerializer(rows, many=True).data)
