"""API of the scorekeeper's corrections, the same services and checks as the round page:

- `POST /api/rounds/<id>/corrections/` with `action` (`undo`, `swap`, `pair`, `bye`,
  `seat`, `move`), the players (`a`, `b`: registration ids), `mode` for `seat` (`bye`,
  `loss`, `opponent`), `table`/`to_table`/`division` for `move`, a `reason` (required), and
  `confirm`: the warnings confirmed (`rematch`, `score-groups`, `second-bye`). A pairing that
  needs one answers 409 `needs-confirmation`, naming it, with `warnings`.
- `POST /api/registrations/<id>/undo-drop/`, `/undo-check-in/` (`reason`), `/seating/`
  (`fixed_table` — a feature table puts the player on stream —, `reason`).
- `GET /api/events/<id>/log/?kind=&player=`: the event log (staff).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league import permissions
from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Event, Registration
from league.params import parse_id
from league.services import eventlog
from rules.errors import DomainError

from . import services
from .models import Round

ACTIONS = ("undo", "swap", "pair", "bye", "seat", "move")


class CorrectionInputSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ACTIONS)
    reason = serializers.CharField(max_length=300, allow_blank=True, default="")
    a = serializers.IntegerField(required=False, allow_null=True, default=None)
    b = serializers.IntegerField(required=False, allow_null=True, default=None)
    mode = serializers.ChoiceField(choices=services.SEAT_MODES, required=False, default="bye")
    table = serializers.IntegerField(required=False, min_value=1, default=0)
    to_table = serializers.IntegerField(required=False, min_value=1, default=0)
    division = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    confirm = serializers.ListField(
        child=serializers.ChoiceField(choices=["rematch", "score-groups", "second-bye"]),
        required=False,
        default=list,
    )


class LogEntrySerializer(serializers.ModelSerializer):
    by = serializers.StringRelatedField()
    registrations = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    # In the request's language (the row keeps its template; older rows their English).
    summary = serializers.CharField(source="worded_summary", read_only=True)

    class Meta:
        model = EventLogEntry
        fields = [
            "id",
            "at",
            "by",
            "kind",
            "round_number",
            "registrations",
            "summary",
            "before",
            "after",
            "reason",
        ]


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, allow_blank=True, default="")


class SeatingSerializer(ReasonSerializer):
    fixed_table = serializers.IntegerField(required=False, allow_null=True, default=None)


def _player(event: Event, pk: int | None) -> Registration | None:
    if pk is None:
        return None
    return get_object_or_404(Registration.objects.select_related("player"), event=event, pk=pk)


def _needs_players(*players) -> None:
    if any(p is None for p in players):
        raise DomainError("invalid-edit", _("Choose the players."))


@extend_schema(request=CorrectionInputSerializer, responses=LogEntrySerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def round_correction(request, round_id: int):
    round_ = get_object_or_404(Round.objects.select_related("event__season__league"), pk=round_id)
    event = round_.event
    if not permissions.can_view_event(request.user, event):
        return Response({"code": "not-found", "detail": _("No such round.")}, status=404)
    data = CorrectionInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    d = data.validated_data
    a, b = _player(event, d["a"]), _player(event, d["b"])
    common = {"round_": round_, "by_user": request.user, "reason": d["reason"]}
    try:
        entry = _run(d, a, b, common)
    except DomainError as exc:
        if exc.code != "needs-confirmation":
            raise
        body = {"code": exc.code, "detail": exc.message, "warnings": list(exc.warnings)}
        return Response(body, status=409)
    if entry is None:  # the round is gone
        return Response({"undone": round_.number})
    return Response(LogEntrySerializer(entry).data)


def _run(d: dict, a, b, common: dict):
    action, confirm = d["action"], d["confirm"]
    if action == "undo":
        services.undo_round(**common)
        return None
    if action == "move":
        return services.move_match(
            table=d["table"], to_table=d["to_table"], division=d["division"], **common
        )
    if action == "seat":
        _needs_players(a)
        opponent = b if d["mode"] == "opponent" else None
        return services.seat_player(
            registration=a, mode=d["mode"], opponent=opponent, confirm=confirm, **common
        )
    if action == "bye":
        _needs_players(a)
        return services.give_bye(registration=a, confirm=confirm, **common)
    _needs_players(a, b)
    call = services.swap_players if action == "swap" else services.pair_players
    return call(a=a, b=b, confirm=confirm, **common)


@extend_schema(responses=LogEntrySerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def event_log(request, event_id: int):
    event = get_object_or_404(Event.objects.select_related("season__league"), pk=event_id)
    if not permissions.can(request.user, event, "view-private"):
        return Response({"code": "not-allowed", "detail": _("Staff only.")}, status=403)
    kind = request.query_params.get("kind", "")
    player = request.query_params.get("player", "")
    rows = eventlog.entries(event, kind=kind, registration=parse_id(player))
    return Response(LogEntrySerializer(rows[:500], many=True).data)


def _registration(request, registration_id: int) -> Registration:
    registration = get_object_or_404(
        Registration.objects.select_related("event__season__league", "player"), pk=registration_id
    )
    if not permissions.can_view_event(request.user, registration.event):
        raise DomainError("not-found", _("No such registration."), status=404)
    return registration


@extend_schema(request=ReasonSerializer, responses={200: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def undo_drop(request, registration_id: int):
    data = ReasonSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    reg = league_services.undo_drop(
        registration=_registration(request, registration_id),
        by_user=request.user,
        **data.validated_data,
    )
    return Response({"registration": reg.pk, "status": reg.status})


@extend_schema(request=ReasonSerializer, responses={200: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def undo_check_in(request, registration_id: int):
    data = ReasonSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    reg = league_services.undo_check_in(
        registration=_registration(request, registration_id),
        by_user=request.user,
        **data.validated_data,
    )
    return Response({"registration": reg.pk, "status": reg.status})


@extend_schema(request=SeatingSerializer, responses={200: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def seating(request, registration_id: int):
    data = SeatingSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    reg = league_services.set_seating(
        registration=_registration(request, registration_id),
        by_user=request.user,
        **data.validated_data,
    )
    return Response({"registration": reg.pk, "fixed_table": reg.fixed_table})
