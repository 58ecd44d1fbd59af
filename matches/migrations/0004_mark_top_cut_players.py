from django.db import migrations


def mark_top_cut_players(apps, schema_editor):
    """`Registration.in_top_cut` for events whose top cut was paired before the field."""
    Match = apps.get_model("matches", "Match")
    Registration = apps.get_model("league", "Registration")
    cut = Match.objects.filter(round__stage="top_cut")
    ids = set(cut.values_list("player_a_id", flat=True)) | set(
        cut.exclude(player_b=None).values_list("player_b_id", flat=True)
    )
    Registration.objects.filter(pk__in=ids).update(in_top_cut=True)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_game_draw_and_won_both_ways"),
        ("league", "0007_staff_roles_and_decklist_phases"),
    ]

    operations = [migrations.RunPython(mark_top_cut_players, migrations.RunPython.noop)]
