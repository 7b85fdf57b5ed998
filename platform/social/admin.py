from django.contrib import admin

from social.models import Block, Challenge, Friendship, Profile


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["from_user", "to_user", "game", "status", "created_at", "expires_at"]
    list_filter = ["status", "game"]
    search_fields = ["from_user__username", "to_user__username"]
    raw_id_fields = ["from_user", "to_user", "table"]


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ["from_user", "to_user", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["from_user__username", "to_user__username"]
    raw_id_fields = ["from_user", "to_user"]


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "avatar", "country"]
    search_fields = ["user__username", "bio"]
    raw_id_fields = ["user"]
