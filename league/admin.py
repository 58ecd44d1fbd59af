from django import forms
from django.contrib import admin

from rules.editions import Edition
from rules.errors import RulesError

from .models import (
    DeckSubmission,
    Event,
    EventPlacement,
    League,
    Player,
    Registration,
    RuleEdition,
    Season,
    SeasonStanding,
    StaffRole,
)


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = [
        "name",
        "starts_on",
        "ends_on",
        "junior_from_year",
        "senior_from_year",
        "best_finishes",
    ]


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0
    fields = ["user", "role", "event"]
    raw_id_fields = ["user", "event"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [SeasonInline, StaffRoleInline]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    """Judges and scorekeepers; organisers are the league's `organisers`."""

    list_display = ["user", "role", "league", "event", "added_at"]
    list_filter = ["role", "league"]
    search_fields = ["user__username", "event__name"]
    raw_id_fields = ["user", "event", "added_by"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "format", "starts_at", "status", "best_of", "capacity"]
    list_filter = ["status", "format", "season__league"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


class RuleEditionForm(forms.ModelForm):
    """Checks the stored rules the way the site reads them (`rules.editions`)."""

    class Meta:
        model = RuleEdition
        fields = ["key", "name", "in_force_from", "rules"]

    def clean(self):
        data = super().clean()
        try:
            Edition.from_dict(
                key=data.get("key") or "",
                name=data.get("name") or "",
                in_force_from=data.get("in_force_from"),
                rules=data.get("rules") or {},
            )
        except RulesError as err:
            raise forms.ValidationError(err.message) from None
        return data


@admin.register(RuleEdition)
class RuleEditionAdmin(admin.ModelAdmin):
    """A new edition is a row: its parts and each rule's source as JSON."""

    form = RuleEditionForm
    list_display = ["name", "key", "in_force_from"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "player_id", "birth_date", "user"]
    search_fields = ["name", "player_id"]


class DeckSubmissionInline(admin.TabularInline):
    model = DeckSubmission
    extra = 0
    fields = ["version", "legal", "card_count", "submitted_by", "submitted_at", "after_deadline"]
    readonly_fields = fields
    can_delete = False


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = [
        "player",
        "event",
        "status",
        "division",
        "late_entry_round",
        "dropped_after_round",
    ]
    list_filter = ["status", "division", "event"]
    search_fields = ["player__name", "player__player_id"]
    list_select_related = ["player", "event"]
    inlines = [DeckSubmissionInline]


@admin.register(DeckSubmission)
class DeckSubmissionAdmin(admin.ModelAdmin):
    """Read-only: decklists change through the site, which keeps every version."""

    list_display = ["registration", "version", "legal", "submitted_by", "submitted_at"]
    list_filter = ["legal", "after_deadline"]

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(EventPlacement)
admin.site.register(SeasonStanding)
