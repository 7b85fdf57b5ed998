from django.contrib import admin

from scoring.models import MatchScore


@admin.register(MatchScore)
class MatchScoreAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "user", "game", "place", "won", "points_halves", "finished_at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("match", "user")
