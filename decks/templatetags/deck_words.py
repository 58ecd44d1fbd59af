"""`{{ text|worded }}`: an engine `rules.i18n.Text` (a finding, an edition's summary) in
the active language (`decks.findings_text.word`)."""

from django import template

from ..findings_text import word

register = template.Library()


@register.filter
def worded(text) -> str:
    return word(text) if text is not None else ""
