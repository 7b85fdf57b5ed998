from django.contrib import admin

from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "text", "created_at", "read_at"]
    list_filter = ["kind"]
    search_fields = ["user__username", "text"]
    raw_id_fields = ["user"]
