"""The floor pages' forms: they check shape and leave the rules to `floor.services`."""

from django import forms

from rules import penalties

from .models import DeckCheck
from .services import MAX_EXTENSION_MINUTES


class ExtensionForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=MAX_EXTENSION_MINUTES, initial=5)
    reason = forms.CharField(max_length=120, required=False)


class PenaltyForm(forms.Form):
    side = forms.ChoiceField(choices=[], label="Player")
    infraction = forms.ChoiceField(choices=penalties.INFRACTIONS)
    penalty = forms.ChoiceField(choices=penalties.PENALTIES)
    prizes = forms.IntegerField(
        min_value=1,
        max_value=penalties.MAX_PRIZES,
        required=False,
        help_text="Prize penalty only: how many Prize cards the opponent takes",
    )
    note = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, names: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [("a", names["a"]), ("b", names["b"])]


class DeckCheckForm(forms.Form):
    side = forms.ChoiceField(choices=[("a", "a"), ("b", "b")], widget=forms.HiddenInput)
    outcome = forms.ChoiceField(choices=DeckCheck.Outcome.choices, widget=forms.RadioSelect)
    note = forms.CharField(max_length=200, required=False)


class CloseCallForm(forms.Form):
    note = forms.CharField(max_length=200, required=False)


class PickTablesForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=50, initial=2)
