from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor tools: judge calls, time extensions, penalties, deck checks"
