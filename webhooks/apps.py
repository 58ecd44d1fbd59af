from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Outgoing webhooks"

    def ready(self) -> None:
        from . import hooks

        hooks.connect()
