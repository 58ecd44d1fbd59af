from django.apps import AppConfig


class TomConfig(AppConfig):
    name = "tom"
    verbose_name = "TOM files"
