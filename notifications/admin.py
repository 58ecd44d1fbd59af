from django.contrib import admin, messages
from django.contrib.auth import get_user_model

from . import services
from .models import EmailPreference, EmailStatus, Notification, OutboxTask


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "recipient",
        "kind",
        "subject",
        "created_at",
        "read_at",
        "email_status",
        "email_attempts",
        "emailed_at",
    ]
    list_filter = ["email_status", "kind", "created_at"]
    search_fields = ["key", "subject", f"recipient__{get_user_model().USERNAME_FIELD}"]
    list_select_related = ["recipient"]
    raw_id_fields = ["recipient"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "key",
        "created_at",
        "email_attempts",
        "email_error",
        "emailed_at",
        "email_next_attempt_at",
        "email_lease_until",
    ]
    actions = ["retry_email"]

    @admin.action(description="Send the e-mail again (failed only)")
    def retry_email(self, request, queryset):
        ids = queryset.filter(email_status=EmailStatus.FAILED).values_list("pk", flat=True)
        count = services.retry_failed_emails(notification_ids=list(ids))
        self.message_user(request, f"Queued {count} e-mail(s) again.", messages.SUCCESS)


@admin.register(EmailPreference)
class EmailPreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "kinds", "updated_at"]
    raw_id_fields = ["user"]
    search_fields = [f"user__{get_user_model().USERNAME_FIELD}"]


@admin.register(OutboxTask)
class OutboxTaskAdmin(admin.ModelAdmin):
    list_display = ["id", "task", "args", "due_at", "dispatched_at", "done_at", "attempts"]
    list_filter = ["task", ("done_at", admin.EmptyFieldListFilter)]
    readonly_fields = [f.name for f in OutboxTask._meta.fields]
