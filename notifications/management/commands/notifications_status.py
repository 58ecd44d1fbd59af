"""`manage.py notifications_status`: the mail queue's state for an operator."""

from django.core.management.base import BaseCommand
from django.db.models import Min
from django.utils import timezone

from notifications import outbox
from notifications.models import EmailStatus, Notification, OutboxTask


class Command(BaseCommand):
    help = "Print the e-mail queue: pending, due, failed, oldest pending, broker reachable."

    def handle(self, *args, **options):
        now = timezone.now()
        pending = Notification.objects.filter(email_status=EmailStatus.PENDING)
        oldest = pending.aggregate(oldest=Min("created_at"))["oldest"]
        leased = pending.filter(email_lease_until__gt=now).count()
        lines = [
            f"pending: {pending.count()} ({leased} being sent now)",
            f"due: {outbox.due_emails(now).count()}",
            f"failed: {Notification.objects.filter(email_status=EmailStatus.FAILED).count()}",
            "oldest pending: "
            + (
                f"{oldest:%Y-%m-%d %H:%M:%S} ({(now - oldest).total_seconds():.0f} s ago)"
                if oldest
                else "none"
            ),
            f"outbox tasks waiting: {OutboxTask.objects.filter(done_at__isnull=True).count()}"
            f" (due: {outbox.due_outbox_tasks(now).count()})",
            f"broker reachable: {'yes' if outbox.broker_reachable() else 'NO'}",
        ]
        self.stdout.write("\n".join(lines))
