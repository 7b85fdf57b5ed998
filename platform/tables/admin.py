from django.contrib import admin

from tables.models import Game, Match, Move, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "away", "timeouts_in_row")
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "seats_count", "status", "rated", "private", "created_by", "created_at")
    list_filter = ("game", "status", "rated", "private")
    search_fields = ("id", "created_by__username")
    raw_id_fields = ("created_by",)
    inlines = [SeatInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "number", "status", "move_number", "bot_substituted", "started_at")
    list_filter = ("status", "bot_substituted", "table__game")
    raw_id_fields = ("table", "match")
    readonly_fields = ("deck", "salt", "commitment", "state", "result")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "seat", "text", "by", "created_at")
    raw_id_fields = ("game",)


admin.site.register(Match)
