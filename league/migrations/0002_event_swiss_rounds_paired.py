from django.db import migrations, models
from django.db.models import Max


def count_paired_rounds(apps, schema_editor):
    """Fill the new field from the rounds already paired."""
    Event = apps.get_model("league", "Event")
    Round = apps.get_model("matches", "Round")
    paired = (
        Round.objects.filter(stage="swiss").order_by().values("event_id").annotate(n=Max("number"))
    )
    for row in paired:
        Event.objects.filter(pk=row["event_id"]).update(swiss_rounds_paired=row["n"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0001_initial"),
        ("matches", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="swiss_rounds_paired",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(count_paired_rounds, migrations.RunPython.noop),
    ]
