"""System checks of the webhooks app (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def private_targets_in_production(app_configs=None, **kwargs) -> list[Warning]:
    """Webhooks to private addresses let an organiser make the server call its own network
    (server-side request forgery): a development setting only."""
    if not getattr(settings, "WEBHOOK_ALLOW_PRIVATE_TARGETS", False):
        return []
    return [
        Warning(
            "WEBHOOK_ALLOW_PRIVATE_TARGETS is on: organisers can point webhooks at this "
            "server's own network (loopback, private and link-local addresses such as the "
            "cloud metadata service).",
            hint="Unset WEBHOOK_ALLOW_PRIVATE_TARGETS in production.",
            id="webhooks.W001",
        )
    ]
