from typing import Any, ClassVar

from django.contrib import admin

from chat.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    # open-ended: moderation's admin extends both
    list_display: tuple[str, ...] = ("created_at", "user", "channel", "table", "shown_text")
    list_filter: ClassVar[tuple[Any, ...]] = ("channel",)
    search_fields = ("user__username", "text")
    date_hierarchy = "created_at"
    list_select_related = ("user",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
