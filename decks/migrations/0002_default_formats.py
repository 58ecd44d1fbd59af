from django.db import migrations

FORMATS = [
    {"key": "standard", "name": "Standard", "base": "standard"},
    {"key": "expanded", "name": "Expanded", "base": "expanded"},
    {"key": "unlimited", "name": "Unlimited", "base": "unlimited"},
]


def seed_formats(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    for spec in FORMATS:
        Format.objects.get_or_create(key=spec["key"], defaults=spec)


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]

    operations = [migrations.RunPython(seed_formats, migrations.RunPython.noop)]
