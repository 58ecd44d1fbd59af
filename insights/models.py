"""What the stream overlay and the metagame keep: a league's archetype rules and an
event's feature match.

`ArchetypeRules` holds a league's ordered rules (`rules.archetypes`) as `[[card,
archetype], ...]`; a league without a row uses `rules.archetypes.DEFAULT_RULES`.
`FeatureMatch` is the table staff put on stream: the overlay without `?table=` follows it
from round to round. A list's archetype itself lives on `league.Registration.archetype`
(blank: suggested from the list by the rules).
"""

from django.db import models

from league.models import Event, League


class ArchetypeRules(models.Model):
    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="archetype_rules")
    rules = models.JSONField(default=list, help_text="[[card name, archetype], ...] in order")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "archetype rules"

    def __str__(self) -> str:
        return f"archetype rules of {self.league}"


class FeatureMatch(models.Model):
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="feature_match")
    table = models.PositiveIntegerField(help_text="The table on stream, in every round")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.event}: table {self.table}"
