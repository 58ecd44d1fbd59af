from django.apps import AppConfig


class GamenightsConfig(AppConfig):
    name = "gamenights"
    verbose_name = "Board-game nights"
