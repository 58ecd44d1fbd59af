"""The words of an import's summary (`Replay.summary` keys, which stay as they are in the
JSON the API and `TomUpload.summary` keep), in the reader's language."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

SUMMARY_WORDS = {
    "dropped": pgettext_lazy("TOM import summary", "dropped"),
    "duplicate": pgettext_lazy("TOM import summary", "duplicate"),
    "matches_paired": pgettext_lazy("TOM import summary", "matches paired"),
    "not_in_a_pod": pgettext_lazy("TOM import summary", "not in a pod"),
    "players_created": pgettext_lazy("TOM import summary", "players created"),
    "registered": pgettext_lazy("TOM import summary", "registered"),
    "results": pgettext_lazy("TOM import summary", "results"),
    "results_changed": pgettext_lazy("TOM import summary", "results changed"),
    "rounds_closed": pgettext_lazy("TOM import summary", "rounds closed"),
    "rounds_repaired": pgettext_lazy("TOM import summary", "rounds repaired"),
    "withdrawn": pgettext_lazy("TOM import summary", "withdrawn"),
}


def summary_label(key: str) -> str:
    """`results_changed` → "results changed" (translated; an unknown key spelled out)."""
    return str(SUMMARY_WORDS.get(str(key), str(key).replace("_", " ")))
