"""The quick report forms' questions where the rule edition decides a game unfinished after
the turns by Prize cards (`rules.editions.EndOfRound`, `rules.results`): who was ahead, and,
level in the top cut, who took the next Prize card. Shared by `matches.forms`'
`QuickReportForm` (best of 1) and `BestOfThreeQuickForm`."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

OTHER = {"a": "b", "b": "a"}


class AfterTheTurns(forms.Form):
    """Where the edition decides a game unfinished after the turns by Prize cards: who was
    `ahead` (me, my opponent, level) and, level in the top cut, who took the `next_prize`;
    answers that belong to the outcome `UNFINISHED` only."""

    UNFINISHED = "tie"
    ahead = forms.ChoiceField(
        choices=[("me", "me"), ("opponent", "opponent"), ("level", "level")], required=False
    )
    next_prize = forms.ChoiceField(choices=[("me", "me"), ("opponent", "opponent")], required=False)

    def clean(self):
        data = super().clean()
        answered = data.get("ahead") or data.get("next_prize")
        if answered and data.get("outcome") != self.UNFINISHED:
            # Translators: "Prize cards" is the official TCG term (fr "cartes Récompense", de "Preiskarten", es "cartas de Premio", it "carte Premio", pt "cartas de Prêmio").
            raise forms.ValidationError(_("Prize cards ahead belong to a game unfinished at time."))
        if data.get("next_prize") and data.get("ahead") != "level":
            raise forms.ValidationError(
                # Translators: "Prize card" is the official TCG term.
                _("The next Prize card decides only a game level on Prize cards.")
            )
        return data

    def answered(self, game: dict, side: str) -> dict:
        """`game` (the unfinished one) with the answers, from the reporting player's side."""
        who = {"me": side, "opponent": OTHER[side], "level": "level"}
        for key in ("ahead", "next_prize"):
            if self.cleaned_data.get(key):
                game[key] = who[self.cleaned_data[key]]
        return game
