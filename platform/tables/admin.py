"""Tables in the admin: read-only history (moves, games, results).

Nobody edits a move, a result, or a started table's game, options and seats;
nothing here can be deleted. The moderators' abort and annul actions are added
by ``moderation.admin``, which owns them.
"""

from django.contrib import admin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.models import Game, Match, Move, Seat, Table


class NoDelete(admin.ModelAdmin):
    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "away", "timeouts_in_row")
    raw_id_fields = ("user",)
    can_delete = False

    def has_change_permission(self, request, obj=None) -> bool:
        # seats of a started table are the game's players: not editable
        return super().has_change_permission(request, obj) and (obj is None or obj.status == Table.Status.OPEN)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(NoDelete):
    list_display = ("id", "game", "seats_count", "status", "rated", "private", "created_by", "created_at")
    list_filter = ("game", "status", "rated", "private")
    search_fields = ("id", "created_by__username")
    raw_id_fields = ("created_by",)
    inlines = [SeatInline]

    def get_readonly_fields(self, request, obj=None):
        always = ("status", "invite_token", "started_at", "finished_at")
        if obj is not None and obj.status != Table.Status.OPEN:
            return (*always, "game", "options", "seats_count", "match_length", "match_options", "rated", "created_by")
        return always


#: what a running game keeps from its players: the deck's order (future draws), the salt behind the
#: commitment, the engine's snapshot (every hand, the discards); shown once the game is over, as the replay does
GAME_SECRETS = ("deck", "salt", "state")


@admin.register(Game)
class GameAdmin(NoDelete):
    list_display = ("id", "table", "number", "status", "move_number", "bot_substituted", "annulled", "started_at")
    list_filter = ("status", "bot_substituted", "annulled", "table__game")
    raw_id_fields = ("table", "match")

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if obj is None or obj.status != Game.Status.PLAYING:
            return fields
        return [f for f in fields if f not in GAME_SECRETS] + ["hidden_while_playing"]

    def get_readonly_fields(self, request, obj=None):
        return (*super().get_readonly_fields(request, obj), "hidden_while_playing")

    @admin.display(description=gettext_lazy("Deck, salt and hands"))
    def hidden_while_playing(self, obj) -> str:
        return _("Hidden while the game is being played: the replay shows them once it is over.")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(NoDelete):
    list_display = ("game", "number", "seat", "text", "by", "created_at")
    raw_id_fields = ("game",)

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if obj is not None and obj.game.status == Game.Status.PLAYING:
            # the action names the cards a seat played face down; its public record and words do not
            return [f for f in fields if f != "action"]
        return fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(NoDelete):
    list_display = ("id", "table", "finished", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
