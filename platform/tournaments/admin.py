from django.contrib import admin

from tournaments.models import Announcement, Board, Registration, Round, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "status", "starts_at", "organizer"]
    list_filter = ["game", "format", "status"]
    search_fields = ["name", "organizer__username"]
    raw_id_fields = ["organizer"]
    inlines = [RegistrationInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "started_at", "finished_at"]


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "table", "finished"]
    raw_id_fields = ["table"]


admin.site.register(Announcement)
