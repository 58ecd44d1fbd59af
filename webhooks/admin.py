from django.contrib import admin

from .models import WebhookDelivery, WebhookEndpoint


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ["id", "league", "url", "events", "consecutive_failures", "paused_at"]
    list_filter = ["league"]
    search_fields = ["url", "description"]
    readonly_fields = ["created_at", "consecutive_failures"]
    raw_id_fields = ["created_by"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "delivery_id",
        "endpoint",
        "event",
        "status",
        "attempts",
        "last_status_code",
        "created_at",
    ]
    list_filter = ["status", "event"]
    search_fields = ["delivery_id", "endpoint__url"]
    list_select_related = ["endpoint"]
    raw_id_fields = ["endpoint"]
    readonly_fields = [
        "delivery_id",
        "created_at",
        "attempts",
        "last_attempt_at",
        "last_status_code",
        "last_response",
        "last_error",
        "delivered_at",
        "dispatched_at",
    ]
