from django.contrib import admin

from leaderboards.models import PlayerRating, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "rating", "mu", "sigma", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "played_game", "place", "rating_before", "rating_after", "at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "played_game")
    # history is derived from results: edit results, then recompute_ratings
    readonly_fields = [f.name for f in RatingChange._meta.fields]
