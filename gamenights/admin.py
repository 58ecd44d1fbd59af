from django.contrib import admin

from .models import GameTable, Seat, Sitting


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["registration"]


@admin.register(GameTable)
class GameTableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "reported_at", "reported_by"]
    list_select_related = ["sitting__event"]
    inlines = [SeatInline]


@admin.register(Sitting)
class SittingAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at"]
    list_select_related = ["event"]
