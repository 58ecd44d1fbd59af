from django.contrib import admin

from .models import Game, Match, ResultChange, ResultReport, Round, StandingsSnapshot


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "division", "player_a", "player_b", "status", "result"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "stage", "status", "published_at", "rematches", "pair_downs"]
    list_filter = ["stage", "status"]
    inlines = [MatchInline]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    readonly_fields = ["number", "sequence", "replay_of", "prizes", "outcome", "reason"]
    can_delete = False


class ChangeInline(admin.TabularInline):
    model = ResultChange
    extra = 0
    readonly_fields = ["changed_at", "changed_by", "source", "before", "after", "note"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Read-only: results change through the site so that every change is kept."""

    list_display = ["__str__", "status", "result", "a_game_wins", "b_game_wins"]
    list_filter = ["status", "round__stage"]
    list_select_related = ["round__event", "player_a__player", "player_b__player"]
    inlines = [GameInline, ChangeInline]

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(ResultReport)
admin.site.register(StandingsSnapshot)
