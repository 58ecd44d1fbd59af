"""API for leagues, seasons, events, registrations and deck submissions.

Permissions come from `league.permissions`, the same functions the pages use: a draft
event (its registrations, standings and decklists with it) is "not found" to anyone but its
staff (`permissions.visible_events`). Anonymous users read leagues, events and published
data only.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _  # DRF makes errors text at once
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from decks.api import DecklistInputSerializer
from decks.findings_text import worded_verdict
from decks.models import Format

from . import permissions, selectors, services
from .forms import EventSearchForm
from .models import DeckSubmission, Event, League, Registration, Season, SeasonStanding
from .public_record import public_name
from .services import staff


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "description"]


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "name",
            "starts_on",
            "ends_on",
            "junior_from_year",
            "senior_from_year",
            "structure_table",
            "points_table",
            "best_finishes",
        ]


class EventSerializer(serializers.ModelSerializer):
    format = serializers.SlugRelatedField(slug_field="key", read_only=True, allow_null=True)
    decklists_published = serializers.SerializerMethodField(
        help_text=_("Every list is public now (`decklists_open` says when they open).")
    )
    zone = serializers.CharField(
        read_only=True, help_text=_("The time zone the event's times are in")
    )
    map_url = serializers.CharField(read_only=True, help_text=_("A map search of the address"))

    class Meta:
        model = Event
        fields = [
            "id",
            "season",
            "name",
            "slug",
            "kind",
            "format",
            "full_finishing_order",
            "starts_at",
            "best_of",
            "round_minutes",
            "deck_deadline",
            "capacity",
            "status",
            "division_mode",
            "sudden_death_prizes",
            "sudden_death_style",
            "swiss_rounds",
            "top_cut",
            "decklists_open",
            "decklists_published",
            "venue_name",
            "venue_address",
            "time_zone",
            "zone",
            "map_url",
            "entry_fee",
            "description",
            "contact",
        ]

    def get_decklists_published(self, event: Event) -> bool:
        return permissions.decklists_are_public(event)


class RegistrationSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id",
            "event",
            "player",
            "player_name",
            "status",
            "division",
            "registered_at",
            "checked_in_at",
            "late_entry_round",
            "dropped_after_round",
        ]


class RosterSerializer(serializers.Serializer):
    registered = serializers.IntegerField()
    waitlist = serializers.IntegerField(help_text=_("How many wait for a place"))
    players = serializers.ListField(
        child=serializers.DictField(), help_text=_("name, division, status")
    )


class WordedVerdictField(serializers.JSONField):
    """A stored verdict with each finding's `message` in the request's language (its
    `code` and `lines` as stored)."""

    def to_representation(self, value):
        return super().to_representation(worded_verdict(value))


class PublishedDeckSerializer(serializers.ModelSerializer):
    """A published decklist as the public sees it: the list that counts, no login name."""

    verdict = WordedVerdictField(read_only=True)

    class Meta:
        model = DeckSubmission
        fields = [
            "id",
            "version",
            "text",
            "legal",
            "verdict",
            "card_count",
            "submitted_at",
            "after_deadline",
        ]


class DeckSubmissionSerializer(PublishedDeckSerializer):
    """A version as the player and staff see it, with who stored it."""

    submitted_by = serializers.StringRelatedField()

    class Meta(PublishedDeckSerializer.Meta):
        fields = [*PublishedDeckSerializer.Meta.fields, "submitted_by"]


class SeasonStandingSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.shown_name", read_only=True)  # public

    class Meta:
        model = SeasonStanding
        fields = ["rank", "player", "player_name", "points", "events_played", "events_counted"]


class PublishSerializer(serializers.Serializer):
    published = serializers.BooleanField(default=True)


class StaffMemberSerializer(serializers.Serializer):
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=staff.ROLES)
    event = serializers.IntegerField(source="event_id", allow_null=True)
    role_id = serializers.IntegerField(
        allow_null=True, help_text=_("The judge's or scorekeeper's role (null for an organiser).")
    )


class AddStaffSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=staff.ROLES)
    event = serializers.IntegerField(required=False, allow_null=True, min_value=1)


class RemoveStaffSerializer(serializers.Serializer):
    role_id = serializers.IntegerField(required=False, min_value=1)
    organiser = serializers.IntegerField(required=False, min_value=1)

    def validate(self, attrs):
        if ("role_id" in attrs) == ("organiser" in attrs):
            raise serializers.ValidationError(_("Give either role_id or organiser."))
        return attrs


class MyActionsSerializer(serializers.Serializer):
    roles = serializers.ListField(child=serializers.CharField())
    actions = serializers.ListField(child=serializers.CharField())


class LeagueViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = r"\d+"
    queryset = League.objects.all()
    serializer_class = LeagueSerializer
    permission_classes = [AllowAny]

    def _organised(self) -> League:
        league = self.get_object()
        if not permissions.is_league_organiser(self.request.user, league):
            raise PermissionDenied(_("Only the league's organisers manage its staff."))
        return league

    @extend_schema(methods=["GET"], responses=StaffMemberSerializer(many=True))
    @extend_schema(
        methods=["POST"], request=AddStaffSerializer, responses={201: StaffMemberSerializer}
    )
    @action(
        detail=True,
        methods=["get", "post"],
        permission_classes=[IsAuthenticated],
        pagination_class=None,
    )
    def staff(self, request, pk=None):
        """Organisers: the league's staff (GET), or give an account a role (POST), for the
        whole league or one event (`event`); organisers are league-wide."""
        league = self._organised()
        if request.method == "GET":
            return Response(StaffMemberSerializer(staff.staff_of(league), many=True).data)
        data = AddStaffSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event_id = data.validated_data.get("event")
        event = None
        if event_id is not None:
            event = Event.objects.select_related("season").filter(pk=event_id).first()
            if event is None:
                raise NotFound(_("No such event."))
        member = staff.add_staff(
            league=league,
            by_user=request.user,
            username=data.validated_data["username"],
            role=data.validated_data["role"],
            event=event,
        )
        return Response(StaffMemberSerializer(member).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RemoveStaffSerializer, responses={204: None})
    @action(
        detail=True,
        methods=["post"],
        url_path="staff/remove",
        permission_classes=[IsAuthenticated],
    )
    def remove_staff(self, request, pk=None):
        """Organisers: remove a judge's or scorekeeper's role (`role_id`) or an organiser."""
        league = self._organised()
        data = RemoveStaffSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        staff.remove_staff(
            league=league,
            by_user=request.user,
            role_id=data.validated_data.get("role_id"),
            organiser_id=data.validated_data.get("organiser"),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = r"\d+"
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer
    permission_classes = [AllowAny]

    @extend_schema(responses=SeasonStandingSerializer(many=True))
    @action(detail=True, pagination_class=None)
    def leaderboard(self, request, pk=None):
        rows = SeasonStanding.objects.filter(season=self.get_object()).select_related("player")
        return Response(SeasonStandingSerializer(rows, many=True).data)


#: The events list's filters, as on the events search page (`league.forms.EventSearchForm`):
#: `q`, `league` (slug), `format` (key), `status` (or `past`), `date_from`, `date_to`.
SEARCH_PARAMS = ("q", "league", "format", "status", "date_from", "date_to")


class EventViewSet(viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = r"\d+"
    serializer_class = EventSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        events = permissions.visible_events(
            self.request.user, Event.objects.select_related("format", "season__league")
        )
        params = self.request.query_params
        if self.action != "list" or not any(params.get(k) for k in SEARCH_PARAMS):
            return events.order_by("pk")
        form = EventSearchForm(
            params,
            leagues=League.objects.values_list("slug", "name"),
            formats=Format.objects.values_list("key", "name"),
        )
        return selectors.search_events(events, **form.filters())

    @extend_schema(request=None, responses={201: RegistrationSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def register(self, request, pk=None):
        """Register yourself (your player profile) for this event."""
        player = getattr(request.user, "player", None)
        if player is None:
            raise PermissionDenied(_("Your account has no player profile."))
        registration = services.register(
            event=self.get_object(), player=player, by_user=request.user
        )
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PublishSerializer, responses=EventSerializer)
    @action(
        detail=True,
        methods=["post"],
        url_path="publish-decklists",
        permission_classes=[IsAuthenticated],
    )
    def publish_decklists(self, request, pk=None):
        """Staff: make the event's decklists public (or private again with `published: false`)."""
        data = PublishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.publish_decklists(
            event=self.get_object(),
            by_user=request.user,
            published=data.validated_data["published"],
        )
        return Response(EventSerializer(event).data)

    @extend_schema(responses=MyActionsSerializer)
    @action(detail=True, url_path="my-actions", pagination_class=None)
    def my_actions(self, request, pk=None):
        """Your staff roles at this event and the actions they allow (empty for a player
        or an anonymous visitor)."""
        event = self.get_object()
        roles = permissions.roles_of(request.user, event)
        return Response({"roles": sorted(roles), "actions": sorted(permissions.actions_for(roles))})

    @extend_schema(responses=RegistrationSerializer(many=True))
    @action(detail=True, pagination_class=None)
    def registrations(self, request, pk=None):
        """Everyone registered (names and status), decklists not part of it: the staff's
        view; anyone else reads the roster's rule (`permissions.can_view_roster`) and the
        public names (a minor's first name and initial)."""
        event = self.get_object()
        rows = Registration.objects.filter(event=event).select_related("player")
        data = RegistrationSerializer(rows, many=True).data
        if permissions.can(request.user, event, "view-private"):
            return Response(data)
        if not permissions.can_view_roster(request.user, event):
            raise PermissionDenied(_("This league shows its rosters to its staff only."))
        names = {reg.pk: public_name(reg.player) for reg in rows}
        return Response([{**row, "player_name": names[row["id"]]} for row in data])

    @extend_schema(responses=RosterSerializer)
    @action(detail=True, pagination_class=None)
    def roster(self, request, pk=None):
        """The roster as the event's page shows it: public names and divisions, and the
        waiting list as a count; 403 when the league shows rosters to its staff only."""
        event = self.get_object()
        if not permissions.can_view_roster(request.user, event):
            raise PermissionDenied(_("This league shows its rosters to its staff only."))
        counts = selectors.registration_counts(event)
        players = [
            {k: row[k] for k in ("name", "division", "status")} for row in selectors.roster(event)
        ]
        waiting = counts.get(Registration.Status.WAITLISTED, 0)
        return Response({"registered": counts["active"], "waitlist": waiting, "players": players})


class RegistrationViewSet(viewsets.GenericViewSet):
    lookup_value_regex = r"\d+"
    queryset = Registration.objects.select_related("event__season__league", "player")
    serializer_class = RegistrationSerializer
    permission_classes = [IsAuthenticated]

    def _own_or_staff(self, registration: Registration, action: str) -> None:
        if not (
            permissions.owns_registration(self.request.user, registration)
            or permissions.can(self.request.user, registration.event, action)
        ):
            if not permissions.can_view_event(self.request.user, registration.event):
                raise NotFound()
            raise PermissionDenied(_("This is not your registration."))

    def retrieve(self, request, pk=None):
        registration = self.get_object()
        self._own_or_staff(registration, "view-private")
        return Response(RegistrationSerializer(registration).data)

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def drop(self, request, pk=None):
        registration = services.drop(registration=self.get_object(), by_user=request.user)
        return Response(RegistrationSerializer(registration).data)

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, pk=None):
        registration = self.get_object()
        self._own_or_staff(registration, "pair-rounds")
        return Response(RegistrationSerializer(services.check_in(registration=registration)).data)

    @extend_schema(
        methods=["POST"], request=DecklistInputSerializer, responses={201: DeckSubmissionSerializer}
    )
    @extend_schema(
        methods=["GET"],
        responses=DeckSubmissionSerializer(many=True),
        description="The player and staff get every version with `submitted_by`; anyone else, "
        "once the lists are published, gets only the list that counts, without `submitted_by`.",
    )
    @action(
        detail=True, methods=["get", "post"], permission_classes=[AllowAny], pagination_class=None
    )
    def decks(self, request, pk=None):
        """GET: the decklist (every version for the player and staff; the list that counts
        for anyone once the organiser published the lists). POST: submit a new version; the
        verdict comes back."""
        if request.method == "POST":
            data = DecklistInputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            # The service loads (and locks) the registration itself: one query fewer.
            submission = services.submit_deck(
                registration=int(pk),
                text=data.validated_data["decklist_text"],
                by_user=request.user,
            )
            return Response(
                DeckSubmissionSerializer(submission).data, status=status.HTTP_201_CREATED
            )
        registration = get_object_or_404(self.get_queryset(), pk=pk)
        if not permissions.can_view_event(request.user, registration.event):
            raise NotFound()
        if not permissions.can_view_decklist(request.user, registration):
            raise PermissionDenied(_("Decklists are private until the organiser publishes them."))
        if not permissions.sees_deck_history(request.user, registration):
            shown = selectors.public_decklist(registration)
            return Response(PublishedDeckSerializer([shown] if shown else [], many=True).data)
        rows = registration.deck_submissions.select_related("submitted_by").order_by("-version")
        return Response(DeckSubmissionSerializer(rows, many=True).data)
