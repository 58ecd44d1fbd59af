"""API for a league's webhooks (its organisers only): the endpoints, their recent
deliveries, and "send again". Registering a URL stays on the page for now; the secret is
never part of an API answer (it is shown on the organiser's page)."""

from django.db.models import Q
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from . import services
from .models import WebhookDelivery, WebhookEndpoint


class WebhookEndpointSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    events = serializers.ListField(child=serializers.CharField(), read_only=True)
    # In the request's language (older rows: as stored).
    paused_reason = serializers.CharField(source="worded_pause", read_only=True)

    class Meta:
        model = WebhookEndpoint
        fields = [
            "id",
            "league",
            "url",
            "description",
            "events",
            "created_at",
            "consecutive_failures",
            "paused_at",
            "paused_reason",
        ]
        read_only_fields = fields


class WebhookDeliverySerializer(serializers.ModelSerializer):
    # In the request's language (older rows: as stored).
    last_error = serializers.CharField(source="worded_error", read_only=True)

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "endpoint",
            "delivery_id",
            "event",
            "created_at",
            "status",
            "attempts",
            "next_attempt_at",
            "last_attempt_at",
            "last_status_code",
            "last_response",
            "last_error",
            "delivered_at",
        ]
        read_only_fields = fields


def _organised(user) -> Q:
    return Q() if user.is_superuser else Q(league__organisers=user)


class WebhookEndpointViewSet(viewsets.ReadOnlyModelViewSet):
    """The webhooks of the leagues you organise."""

    lookup_value_regex = r"\d+"
    serializer_class = WebhookEndpointSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return (
            WebhookEndpoint.objects.filter(_organised(self.request.user))
            .select_related("league")
            .distinct()
            .order_by("pk")
        )

    @extend_schema(responses=WebhookDeliverySerializer(many=True))
    @action(detail=True)
    def deliveries(self, request, pk=None):
        """The endpoint's deliveries, newest first."""
        rows = self.paginate_queryset(self.get_object().deliveries.order_by("-created_at", "-id"))
        return self.get_paginated_response(WebhookDeliverySerializer(rows, many=True).data)


class WebhookDeliveryViewSet(viewsets.GenericViewSet):
    lookup_value_regex = r"\d+"
    serializer_class = WebhookDeliverySerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        user = self.request.user
        scope = Q() if user.is_superuser else Q(endpoint__league__organisers=user)
        return WebhookDelivery.objects.filter(scope).select_related("endpoint__league").distinct()

    @extend_schema(request=None, responses=WebhookDeliverySerializer)
    @action(detail=True, methods=["post"], url_path="send-again")
    def send_again(self, request, pk=None):
        """Send the delivery again (same delivery id); 409 `webhook-endpoint-paused` while
        its URL is paused."""
        delivery = services.send_again(delivery=self.get_object(), by_user=request.user)
        return Response(WebhookDeliverySerializer(delivery).data)
