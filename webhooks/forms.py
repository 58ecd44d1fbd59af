"""Page forms of the webhooks app: they check shape; the services check the rest."""

from django import forms

from . import events


class EndpointForm(forms.Form):
    url = forms.CharField(
        label="URL",
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://example.org/hooks/league"}),
        help_text="A Discord webhook URL (https://discord.com/api/webhooks/…) gets messages "
        "Discord shows.",
    )
    description = forms.CharField(max_length=120, required=False)
    events = forms.MultipleChoiceField(
        choices=events.EVENTS, widget=forms.CheckboxSelectMultiple, initial=list(events.NAMES)
    )


class EndpointEventsForm(forms.Form):
    description = forms.CharField(max_length=120, required=False)
    events = forms.MultipleChoiceField(choices=events.EVENTS, widget=forms.CheckboxSelectMultiple)
