"""Forms of the league pages: they check shape only; the services decide."""

from django import forms

from decks.api import MAX_DECKLIST_CHARS


class DecklistForm(forms.Form):
    decklist_text = forms.CharField(
        label="Decklist",
        widget=forms.Textarea(attrs={"spellcheck": "false", "autocomplete": "off"}),
        max_length=MAX_DECKLIST_CHARS,
        strip=False,
        error_messages={"required": "Paste your decklist: the text is empty."},
    )


class PublishDecklistsForm(forms.Form):
    published = forms.BooleanField(required=False)
