"""Forms of the league pages: they check shape only; the services decide."""

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.sites.shortcuts import get_current_site
from django.core.validators import RegexValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from decks.findings_text import seeded_name
from decks.parser import MAX_PASTE_CHARS

from . import services
from .languages import language_choices
from .models import Event
from .public_record import TIME_ZONES


class DecklistForm(forms.Form):
    decklist_text = forms.CharField(
        label=_("Decklist"),
        widget=forms.Textarea(attrs={"spellcheck": "false", "autocomplete": "off"}),
        max_length=MAX_PASTE_CHARS,
        strip=False,
        error_messages={"required": _("Paste your decklist: the text is empty.")},
    )


class PublishDecklistsForm(forms.Form):
    published = forms.BooleanField(label=_("Published"), required=False)


#: The one sentence on the e-mail address, at sign-up and on the profile: it is optional.
EMAIL_HELP = _(
    "Optional. Pairings, deck verdicts and results are sent here, and a forgotten password "
    "is reset here; without one you read them in your inbox. Other players never see it."
)


class SignupForm(UserCreationForm):
    """A new account: username, e-mail (optional, as on the profile), password twice
    (Django's password rules)."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=EMAIL_HELP,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def known_addresses(self) -> list[str]:
        """The addresses, as stored, of accounts that already use this e-mail address. The page never says so
        (that would tell anyone which addresses have accounts): the sign-up goes on as for
        a new address, and the view mails the address's owner instead."""
        email = self.cleaned_data["email"]
        if not email:
            return []
        users = type(self.instance)._default_manager.filter(email__iexact=email)
        return sorted(set(users.values_list("email", flat=True)))


PLAYER_ID = RegexValidator(
    r"^[A-Za-z0-9-]+$", _("Use the digits (and letters) of your ID only, without spaces.")
)


class ProfileForm(forms.Form):
    """The player profile: checks shape only; `league.services.save_profile` decides."""

    name = forms.CharField(
        label=_("Display name"),
        max_length=120,
        help_text=_("Shown in pairings, standings and on the projector."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    player_id = forms.CharField(
        # Translators: "Play! Pokémon" is the name of the organised play programme.
        label=_("Play! Pokémon player ID"),
        max_length=20,
        validators=[PLAYER_ID],
        help_text=_("The number on your Play! Pokémon membership: one per player."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    birth_date = forms.DateField(
        label=_("Birth date"),
        # Translators: Junior, Senior and Masters are the official age divisions of Play!
        # Pokémon (usually kept in English in every language).
        help_text=_("Your age division (Junior, Senior, Masters) comes from the year."),
        widget=forms.DateInput(attrs={"type": "date", "autocomplete": "bday"}, format="%Y-%m-%d"),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=EMAIL_HELP,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=lambda: [("", _("The browser's language")), *language_choices()],
        help_text=_("Pages and e-mails in this language."),
    )

    def clean_birth_date(self):
        born = self.cleaned_data["birth_date"]
        if born > timezone.localdate():
            raise forms.ValidationError(_("A birth date cannot be in the future."))
        if born.year < 1900:
            raise forms.ValidationError(_("Check the year of your birth date."))
        return born


class EventForm(forms.ModelForm):
    """The settings organisers choose for an event; the service checks the rest."""

    class Meta:
        model = Event
        fields = ["name", "kind", "format", "full_finishing_order", "starts_at", "best_of",
                  "round_minutes", "deck_deadline", "capacity", "division_mode",
                  "sudden_death_style", "sudden_death_prizes", "swiss_rounds", "top_cut",
                  "require_check_in", "status", "decklists_open", "rule_edition", "days", "day1_rounds",
                  "venue_name", "venue_address", "time_zone", "entry_fee", "description", "contact", "language"]  # fmt: skip
        widgets = {
            "starts_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
            "deck_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }
        # Every field's label here: the automatic one (from the model) is English only.
        labels = {
            "name": _("Name"),
            "kind": _("Kind of event"),
            "format": _("Format"),
            "full_finishing_order": _("Full finishing order"),
            "starts_at": _("Starts at"),
            "best_of": _("Best of"),
            "round_minutes": _("Round minutes"),
            "deck_deadline": _("Deck deadline"),
            "capacity": _("Capacity"),
            "division_mode": _("Division mode"),
            # Translators: "sudden death" is the TCG term (fr "mort subite", es "muerte
            # súbita", it "morte improvvisa", pt "morte súbita", de "Sudden Death").
            "sudden_death_style": _("Sudden death"),
            # Translators: the number of Prize cards in a sudden-death game ("Prize cards":
            # fr "cartes Récompense", de "Preiskarten", es "cartas de Premio", it "carte
            # Premio", pt "cartas de Prêmio").
            "sudden_death_prizes": _("Sudden death prizes"),
            # Translators: Swiss rounds, as in the Swiss tournament system.
            "swiss_rounds": _("Swiss rounds"),
            # Translators: "top cut" is the single-elimination finals after the Swiss rounds.
            "top_cut": _("Top cut"),
            "require_check_in": _("Require check in"),
            "status": _("Status"),
            "decklists_open": _("Decklists open"),
            "rule_edition": _("Rules edition"),
            "days": _("Days"),
            "day1_rounds": _("Swiss rounds on day 1"),
            "venue_name": _("Venue"),
            "venue_address": _("Address"),
            "time_zone": _("Time zone"),
            "entry_fee": _("Entry fee"),
            "description": _("Description"),
            "contact": _("Contact"),
            "language": _("Language"),
        }
        help_texts = {
            "kind": _(
                "A tournament: decklists, Swiss, top cut. A board-game night: tables of "
                "2 to 6 players, one winner each, no decklists."
            ),
            "format": _("Tournaments only: a board-game night has no deck format."),
            "full_finishing_order": _(
                "Board-game nights: tables report every player's place, not only the winner "
                "(a house rule: the rulebook names a winner only)."
            ),
            "swiss_rounds": _("Empty: from the season's table by attendance."),
            "top_cut": _("Empty: from the season's table; 0: no top cut."),
            "sudden_death_style": _(
                "When both players win at once. The 1996 rules go on with the same game (it "
                "can end in a draw: a tie in Swiss, a replay in the top cut)."
            ),
            "sudden_death_prizes": _(
                "For a new sudden-death game, and a game that settles a level top-cut match."
            ),
            "require_check_in": _("Pair only players who checked in"),
            "rule_edition": _(
                "Empty: the edition in force on the event's date (the event page shows which "
                "and why)."
            ),
            "decklists_open": _(
                "The top cut's lists open once the cut is paired, every list once the event "
                "is finished. Until then each list is seen by its player and the staff only."
            ),
            "day1_rounds": _("Two-day events (empty: two thirds of the Swiss rounds, rounded up)"),
            "venue_address": _("The event page links to a map of it."),
            "time_zone": _("The event's times are shown in it (empty: the site's time zone)."),
            "entry_fee": _("Informational, paid at the venue (e.g. €5)."),
            "contact": _("An e-mail address or a phone number for questions."),
            "language": _(
                "Match slips, deck sheets and e-mails sent to everyone are in it; each player's "
                "own e-mails follow their profile's language."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Optional: a form posted without it (an older page, a script) keeps the new game.
        self.fields["sudden_death_style"].required = False
        self.fields["kind"].required = False  # a form without it makes a tournament
        self.fields["decklists_open"].required = False  # a form without it keeps the phase
        self.fields["days"].required = False  # a form without it keeps one day
        self.fields["language"].required = False  # a form without it keeps the language
        self.fields["time_zone"].widget = forms.Select(
            choices=[("", _("The site's time zone")), *((z, z) for z in TIME_ZONES)]
        )
        # The seeded formats' and editions' names are msgids (decks.formats,
        # league.edition_seeds): the lists say them in the reader's language, as pages do.
        for name in ("format", "rule_edition"):
            self.fields[name].label_from_instance = seeded_name

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.instance.language

    def clean_days(self) -> int:
        return self.cleaned_data.get("days") or self.instance.days or 1

    def clean_sudden_death_style(self):
        return self.cleaned_data.get("sudden_death_style") or "new_game"

    def clean_kind(self):
        return self.cleaned_data.get("kind") or Event.Kind.TOURNAMENT

    def clean_decklists_open(self) -> str:
        return self.cleaned_data.get("decklists_open") or self.instance.decklists_open

    def clean(self):
        data = super().clean()
        if data.get("kind") == "board_game":
            data["format"] = None  # a night has no deck format, whatever the list showed
        return data


class PasswordResetByWorkerForm(PasswordResetForm):
    """Django's reset form, whose `save` records the e-mail for the worker
    (`services.request_password_reset`) instead of sending it inside the request."""

    def save(self, domain_override=None, use_https=False, request=None, **kwargs) -> None:
        if domain_override:
            site_name = domain = domain_override
        else:
            site = get_current_site(request)
            site_name, domain = site.name, site.domain
        services.request_password_reset(
            email=self.cleaned_data["email"],
            domain=domain,
            site_name=site_name,
            use_https=use_https,
        )


class EventSearchForm(forms.Form):
    """The events search: every field optional; a wrong value is dropped, never an error
    page (the list shows what the rest asks)."""

    q = forms.CharField(label=_("Search"), required=False, max_length=80)
    league = forms.ChoiceField(label=_("League"), required=False)
    format = forms.ChoiceField(label=_("Format"), required=False)
    status = forms.ChoiceField(label=_("Status"), required=False)
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, leagues=(), formats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].choices = [("", _("Every league")), *leagues]
        self.fields["format"].choices = [
            ("", _("Every format")),
            *((value, seeded_name(label)) for value, label in formats),
        ]
        statuses = [(s, label) for s, label in Event.Status.choices if s != Event.Status.DRAFT]
        self.fields["status"].choices = [("", _("Any status")), *statuses]

    def filters(self) -> dict:
        """The valid fields as `selectors.search_events` takes them."""
        self.is_valid()
        data = self.cleaned_data
        return {
            "text": data.get("q") or "",
            "league": data.get("league") or "",
            "format": data.get("format") or "",
            "status": data.get("status") or "",
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
        }
