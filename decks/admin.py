from django.contrib import admin

from .models import Card, CardSet, Format, PreconDeck


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "ptcgo_code", "series", "release_date", "total"]
    search_fields = ["id", "name", "ptcgo_code"]
    list_filter = ["series"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "supertype", "set_code", "number", "regulation_mark"]
    list_filter = ["supertype", "regulation_mark", "is_basic_energy", "is_ace_spec", "is_radiant"]
    search_fields = ["id", "name", "norm_name"]
    list_select_related = ["card_set"]
    readonly_fields = ["data"]


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "base", "allowed_marks", "deck_size", "prizes"]
    prepopulated_fields = {"key": ["name"]}
    filter_horizontal = ["allowed_sets"]
    fieldsets = [
        (None, {"fields": ["name", "key"]}),
        (
            "Cards",
            {
                "fields": [
                    "base",
                    "allowed_sets",
                    "sets_released_by",
                    "allowed_marks",
                    "basic_energy_types",
                    "banned_names",
                    "banned_prints",
                ]
            },
        ),
        (
            "Rules (rules.formats.FormatRules)",
            {
                "fields": [
                    "deck_size",
                    "prizes",
                    "require_basic_pokemon",
                    "copy_limit",
                    "copy_exempt",
                    "limited_energy",
                    "win_both_ways",
                    "play_notes",
                ],
            },
        ),
    ]


@admin.register(PreconDeck)
class PreconDeckAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "card_set"]
    search_fields = ["id", "name"]
