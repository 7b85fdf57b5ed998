from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "email", "is_bot", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*(BaseUserAdmin.fieldsets or ()), ("Player", {"fields": ("display_name", "is_bot")}))
