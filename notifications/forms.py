from django import forms
from django.utils.translation import gettext_lazy as _

from .models import NotificationKind


class EmailPreferenceForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        choices=NotificationKind.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("E-mail me about"),
    )


class IdListField(forms.Field):
    """Repeated `name=<int>` parameters as a list of ints."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        try:
            ids = [int(item) for item in value or []]
        except (TypeError, ValueError):
            ids = None
        if ids is None or not all(0 < pk < 2**63 for pk in ids):
            raise forms.ValidationError(_("Invalid notification id."), code="invalid")
        return ids


class MarkReadForm(forms.Form):
    """Either `all`, or one or more `id` values."""

    id = IdListField(required=False)
    all = forms.BooleanField(required=False)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("all") and not cleaned.get("id"):
            raise forms.ValidationError(_("Choose notifications to mark as read."))
        return cleaned
