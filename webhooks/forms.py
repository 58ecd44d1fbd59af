"""Page forms of the webhooks app: they check shape; the services check the rest."""

from django import forms
from django.utils.translation import gettext_lazy as _

from . import events


class EndpointForm(forms.Form):
    url = forms.CharField(
        label=_("URL"),
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://example.org/hooks/league"}),
        help_text=_(
            "A Discord webhook URL (https://discord.com/api/webhooks/…) gets messages "
            "Discord shows."
        ),
    )
    description = forms.CharField(max_length=120, required=False, label=_("Description"))
    events = forms.MultipleChoiceField(
        choices=events.EVENTS,
        widget=forms.CheckboxSelectMultiple,
        initial=list(events.NAMES),
        label=_("Events"),
    )


class EndpointEventsForm(forms.Form):
    description = forms.CharField(max_length=120, required=False, label=_("Description"))
    events = forms.MultipleChoiceField(
        choices=events.EVENTS, widget=forms.CheckboxSelectMultiple, label=_("Events")
    )
