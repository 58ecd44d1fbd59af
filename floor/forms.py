"""The floor pages' forms: they check shape and leave the rules to `floor.services`."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import penalties

from . import wording
from .models import DeckCheck
from .services import MAX_EXTENSION_MINUTES


class ExtensionForm(forms.Form):
    minutes = forms.IntegerField(
        min_value=1, max_value=MAX_EXTENSION_MINUTES, initial=5, label=_("Minutes")
    )
    reason = forms.CharField(max_length=120, required=False, label=_("Reason"))


class PenaltyForm(forms.Form):
    side = forms.ChoiceField(choices=[], label=_("Player"))
    infraction = forms.ChoiceField(choices=wording.INFRACTIONS, label=_("Infraction"))
    penalty = forms.ChoiceField(choices=wording.PENALTIES, label=_("Penalty"))
    prizes = forms.IntegerField(
        min_value=1,
        max_value=penalties.MAX_PRIZES,
        required=False,
        # Translators: "Prize cards" is the official TCG term (fr "cartes Récompense", de "Preiskarten", es "cartas de Premio", it "carte Premio", pt "cartas de Prêmio").
        label=_("Prizes"),
        # Translators: "Prize cards" is the official TCG term (fr "cartes Récompense", de "Preiskarten", es "cartas de Premio", it "carte Premio", pt "cartas de Prêmio").
        help_text=_("Prize penalty only: how many Prize cards the opponent takes"),
    )
    note = forms.CharField(max_length=200, required=False, label=_("Note"))

    def __init__(self, *args, names: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [("a", names["a"]), ("b", names["b"])]


class DeckCheckForm(forms.Form):
    side = forms.ChoiceField(choices=[("a", "a"), ("b", "b")], widget=forms.HiddenInput)
    outcome = forms.ChoiceField(
        choices=DeckCheck.Outcome.choices,
        widget=forms.RadioSelect,
        label=pgettext_lazy("deck check", "Outcome"),
    )
    note = forms.CharField(max_length=200, required=False, label=_("Note"))


class CloseCallForm(forms.Form):
    note = forms.CharField(max_length=200, required=False, label=_("Note"))


class PickTablesForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=50, initial=2, label=_("Count"))
