"""The table report form: it checks shape only; `services.report_table` decides."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league.public_record import public_name


class TableReportForm(forms.Form):
    """The winner (radio buttons, big enough for a thumb) or, when the night keeps the full
    order (house rule), a place for every player."""

    def __init__(self, *args, seats, full_order: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.full_order = full_order
        if full_order:
            places = [("", "—")] + [(str(n), str(n)) for n in range(1, len(seats) + 1)]
            for seat in seats:
                self.fields[f"place_{seat.registration_id}"] = forms.TypedChoiceField(
                    label=public_name(seat.registration.player),
                    choices=places,
                    coerce=int,
                    initial=seat.finish or "",
                )
        else:
            winner = next((s.registration_id for s in seats if s.finish == 1), None)
            self.fields["winner"] = forms.TypedChoiceField(
                label=_("Who won?"),
                coerce=int,
                widget=forms.RadioSelect,
                initial=winner,
                choices=[(s.registration_id, public_name(s.registration.player)) for s in seats],
                error_messages={"required": _("Choose the winner.")},
            )

    def clean(self):
        data = super().clean()
        if self.full_order and not self.errors:
            places = [data[f"place_{s.registration_id}"] for s in self.seats]
            if sorted(places) != list(range(1, len(self.seats) + 1)):
                raise forms.ValidationError(_("Give each player a different place, 1 to the last."))
        return data

    def order(self) -> list[int]:
        """Registration ids, winner first."""
        if not self.full_order:
            return [self.cleaned_data["winner"]]
        return sorted(
            (s.registration_id for s in self.seats),
            key=lambda reg: self.cleaned_data[f"place_{reg}"],
        )
