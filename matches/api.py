"""API for rounds, matches, results and standings.

Anonymous users and players see published rounds and published standings only; staff of
the event's league see everything and act on rounds and results; players report their own
matches. A draft event's rounds, matches and standings are "not found" to anyone but its
staff (`league.permissions.can_view_event`, the rule the pages use).
"""

from django.core.cache import cache
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from league import permissions
from league.models import Event
from league.params import parse_id, parse_number
from league.public_record import public_name

from . import page_cache, selectors, services
from .models import Game, Match, ResultChange, Round, StandingsSnapshot


def _visible_event(user, event_id) -> Event:
    """The event, or 404 when `user` may not see it (a draft, to anyone but its staff)."""
    return get_object_or_404(
        permissions.visible_events(user, Event.objects.select_related("season__league")),
        pk=event_id,
    )


class GameSerializer(serializers.ModelSerializer):
    replay_of = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text=_("The game this sudden-death game replays")
    )

    class Meta:
        model = Game
        fields = ["id", "number", "sequence", "replay_of", "prizes", "outcome", "reason"]


class ResultChangeSerializer(serializers.ModelSerializer):
    changed_by = serializers.StringRelatedField()

    class Meta:
        model = ResultChange
        fields = ["changed_at", "changed_by", "source", "before", "after", "note"]


@extend_schema_field(OpenApiTypes.STR)
class PlayerNameField(serializers.Field):
    """A side's name: the public name (a minor's first name and initial,
    `league.public_record.public_name`), full only with `{"staff": True}` in the context
    (the event's staff, answered per request; the cached public JSON never is)."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, registration):
        if self.context.get("staff"):
            return registration.player.name
        return public_name(registration.player)


class MatchSerializer(serializers.ModelSerializer):
    player_a_name = PlayerNameField(source="player_a")
    player_b_name = PlayerNameField(
        source="player_b", allow_null=True, help_text=_("null for a bye")
    )
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    games = GameSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "round_number",
            "table",
            "division",
            "player_a",
            "player_a_name",
            "player_b",
            "player_b_name",
            "status",
            "result",
            "a_game_wins",
            "b_game_wins",
            "ended_at_time",
            "intentional_draw",
            "games",
        ]


def match_answer(match: Match) -> dict:
    """`MatchSerializer(match).data` (public names), built straight from the match a report
    just wrote: the report's answer, without building the ModelSerializer's fields on every
    request (a test holds it equal to the serializer's, which the schema documents).

    Games are written only with a result (`services.results`), and a report that makes
    the result stand keeps the games it wrote on the match: a match with no result has no
    game to read, and one with a result reads them once."""
    games = match.games.all() if match.result else ()
    return {
        "id": match.pk,
        "round_number": match.round.number,
        "table": match.table,
        "division": match.division,
        "player_a": match.player_a_id,
        "player_a_name": public_name(match.player_a.player),
        "player_b": match.player_b_id,
        "player_b_name": public_name(match.player_b.player) if match.player_b_id else None,
        "status": match.status,
        "result": match.result,
        "a_game_wins": match.a_game_wins,
        "b_game_wins": match.b_game_wins,
        "ended_at_time": match.ended_at_time,
        "intentional_draw": match.intentional_draw,
        "games": [
            {
                "id": g.pk,
                "number": g.number,
                "sequence": g.sequence,
                "replay_of": g.replay_of_id,
                "prizes": g.prizes,
                "outcome": g.outcome,
                "reason": g.reason,
            }
            for g in games
        ],
    }


class RoundSerializer(serializers.ModelSerializer):
    matches = MatchSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "event",
            "number",
            "stage",
            "status",
            "published_at",
            "clock_started_at",
            "ends_at",
            "rematches",
            "pair_downs",
            "matches",
        ]


class WaysSerializer(serializers.Serializer):
    """How many ways each player won a game both won at once (1: last Prize card, or the
    opponent has no Pokémon to replace the Active; 2: both)."""

    a = serializers.IntegerField(min_value=1, max_value=2)
    b = serializers.IntegerField(min_value=1, max_value=2)


class GameInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Game.Outcome.choices)
    reason = serializers.ChoiceField(choices=Game.Reason.choices, default="played")
    prizes = serializers.IntegerField(
        min_value=0,
        max_value=6,
        required=False,
        help_text=_(
            "Only to confirm: a game's Prize count is the format's or the event's "
            "sudden death's, and a different one is refused (prize-count)"
        ),
    )
    ways = WaysSerializer(
        required=False,
        help_text=_(
            'A "both_won" game: how many ways each player won; the format\'s "won both '
            'ways" rule may decide it'
        ),
    )


class ResultInputSerializer(serializers.Serializer):
    games = GameInputSerializer(many=True, required=False, default=list)
    at_time = serializers.BooleanField(default=False)
    intentional_draw = serializers.BooleanField(default=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class RoundViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = r"\d+"
    serializer_class = RoundSerializer
    permission_classes = [AllowAny]
    # The list is one event's rounds, whole (`?event=`), not a page of all rounds.
    pagination_class = None

    def get_queryset(self):
        qs = Round.objects.select_related("event__season__league").prefetch_related(
            "matches__player_a__player", "matches__player_b__player", "matches__games"
        )
        if not self.request.user.is_authenticated:
            return qs.public()
        return qs

    def get_object(self):
        round_ = super().get_object()
        if not selectors.can_view_round(self.request.user, round_):
            raise NotFound()
        return round_

    def retrieve(self, request, pk=None):
        """A round with its matches. A published round's JSON is built once per version of
        the event and served from the shared cache (`matches.page_cache`), with an ETag."""
        head = get_object_or_404(Round.objects.select_related("event"), pk=pk)
        staff = permissions.can(request.user, head.event, "view-private")
        if not selectors.can_view_round(request.user, head):
            raise NotFound()
        if staff:
            round_ = self.get_queryset().get(pk=head.pk)
            return Response(RoundSerializer(round_, context={"staff": True}).data)
        tag = '"' + page_cache.etag(head.event_id, "api-round", head.pk) + '"'
        if tag in request.headers.get("If-None-Match", ""):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        data = page_cache.cached(
            head.event_id,
            f"api-round:{head.pk}",
            lambda: RoundSerializer(self.get_queryset().get(pk=head.pk)).data,
        )
        return Response(data, headers={"ETag": tag, "Cache-Control": "no-cache"})

    @extend_schema(parameters=[OpenApiParameter("event", int, required=True)])
    def list(self, request):
        event_id = parse_id(request.query_params.get("event"))
        if event_id is None:
            return Response(
                {"detail": gettext("Pass ?event=<event id>.")}, status=status.HTTP_400_BAD_REQUEST
            )
        event = _visible_event(request.user, event_id)
        staff = permissions.can(request.user, event, "view-private")
        rounds = selectors.visible_rounds(event, staff=staff).prefetch_related(
            "matches__player_a__player", "matches__player_b__player", "matches__games"
        )
        return Response(RoundSerializer(rounds, many=True, context={"staff": staff}).data)

    def _act(self, service):
        round_ = get_object_or_404(Round.objects.select_related("event"), pk=self.kwargs["pk"])
        service(round_=round_, by_user=self.request.user)
        data = RoundSerializer(selectors.round_with_matches(round_), context={"staff": True}).data
        return Response(data)

    @extend_schema(request=None)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def publish(self, request, pk=None):
        return self._act(services.publish_round)

    @extend_schema(request=None)
    @action(
        detail=True, methods=["post"], url_path="start-clock", permission_classes=[IsAuthenticated]
    )
    def start_clock(self, request, pk=None):
        return self._act(services.start_clock)

    @extend_schema(request=None)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def close(self, request, pk=None):
        return self._act(services.close_round)


@extend_schema(request=None, responses={201: RoundSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def pair_next_round(request, event_id: int):
    """Pair the event's next round (staff). Two calls at once make one round: the second
    gets 409 `round-open`."""
    event = _visible_event(request.user, event_id)
    round_ = services.pair_next_round(event=event, by_user=request.user)
    data = RoundSerializer(selectors.round_with_matches(round_), context={"staff": True}).data
    return Response(data, status=status.HTTP_201_CREATED)


class MatchViewSet(viewsets.GenericViewSet):
    lookup_value_regex = r"\d+"
    serializer_class = MatchSerializer
    permission_classes = [AllowAny]
    queryset = Match.objects.select_related(
        "round__event__season__league", "player_a__player", "player_b__player"
    ).prefetch_related("games")

    def retrieve(self, request, pk=None):
        match = self.get_object()
        if not selectors.can_view_round(request.user, match.round):
            raise NotFound()
        staff = permissions.can(request.user, match.round.event, "view-private")
        data = MatchSerializer(match, context={"staff": staff}).data
        if staff:
            data["changes"] = ResultChangeSerializer(
                match.changes.select_related("changed_by"), many=True
            ).data
        return Response(data)

    @extend_schema(request=ResultInputSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def report(self, request, pk=None):
        """A player reports their own match, game by game."""
        payload = ResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            # The service reads the match with its round, event and players in the query
            # that locks it: one read, not one here and one there.
            match = services.report_result(
                match=Match(pk=int(pk)), by_user=request.user, payload=payload.validated_data
            )
        except Match.DoesNotExist:
            raise NotFound() from None
        return Response(match_answer(match))

    @extend_schema(request=ResultInputSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def result(self, request, pk=None):
        """Staff enter or correct the result; the change is kept in the match's history."""
        payload = ResultInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        note = data.pop("note", "")
        match = services.set_result(
            match=self.get_object(), by_user=request.user, payload=data, note=note
        )
        match = self.get_queryset().get(pk=match.pk)
        return Response(MatchSerializer(match, context={"staff": True}).data)


class StandingsRowSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.CharField(
        help_text=_(
            "The Play! Pokémon ID: shown to the event's staff and on the player's own "
            'row, "" to everyone else'
        )
    )
    division = serializers.CharField()
    rank = serializers.IntegerField()
    points = serializers.IntegerField()
    record = serializers.CharField(help_text=_("wins-losses-ties"))
    owp = serializers.FloatField()
    oowp = serializers.FloatField()
    dropped = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    published = serializers.BooleanField()
    computed_at = serializers.DateTimeField(required=False)
    rows = StandingsRowSerializer(many=True)


@extend_schema(
    parameters=[OpenApiParameter("round", int, required=False)], responses=StandingsSerializer
)
@api_view(["GET"])
@permission_classes([AllowAny])
def event_standings(request, event_id: int):
    """The latest standings snapshot (or `?round=N`). Only published standings are shown
    to players and anonymous users; staff also see the live, unpublished ones."""
    event = _visible_event(request.user, event_id)
    raw_round = request.query_params.get("round", "")
    round_number = parse_number(raw_round, lo=1)
    if raw_round and round_number is None:
        return Response(
            {"detail": gettext("round must be a round number.")},
            status=status.HTTP_400_BAD_REQUEST,
        )
    staff = permissions.can(request.user, event, "view-private")
    snapshot = selectors.latest_standings_head(event, round_number, published_only=not staff)
    if snapshot is None:
        return Response({"round": None, "version": None, "published": False, "rows": []})
    # A snapshot's rows change only with its computed_at: kept in the cache under both.
    key = f"standings-rows:{snapshot.pk}:{snapshot.computed_at.timestamp()}"
    rows = cache.get(key)
    if rows is None:
        rows = StandingsSnapshot.objects.values_list("rows", flat=True).get(pk=snapshot.pk)
        cache.set(key, rows, timeout=page_cache.FRAGMENT_TIMEOUT)
    rows = selectors.standings_rows_for(request.user, event, rows, staff=staff)
    return Response(
        {
            "round": snapshot.round_number,
            "version": snapshot.version,
            "published": snapshot.published,
            "computed_at": snapshot.computed_at,
            "rows": rows,
        }
    )
