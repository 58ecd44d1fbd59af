from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Outgoing webhooks"

    def ready(self) -> None:
        # `sending` registers the deliveries' kind of leased work with the one relay;
        # `checks` the deploy check on private targets.
        from . import checks, hooks, sending  # noqa: F401

        hooks.connect()
