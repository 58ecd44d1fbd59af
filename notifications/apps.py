from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Registers the batched rows' kind (`leases.register`) for the relay, in every process.
        from . import batches  # noqa: F401, PLC0415 (registered in ready(), once the models are loaded)
