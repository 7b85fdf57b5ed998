from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.names import NAME_MAX, NameRefused, display_name_check, username_check

if TYPE_CHECKING:
    from django.http import HttpRequest

    from accounts.models import User


class SignupForm(forms.Form):
    """Extra field on allauth's sign-up form (``ACCOUNT_SIGNUP_FORM_CLASS``); allauth's form inherits from this
    one, so ``clean`` sees the username chosen beside the display name."""

    display_name = forms.CharField(
        max_length=NAME_MAX,
        required=False,
        strip=False,  # the name's own rules tidy it (accounts.names)
        label=_("Display name"),
        help_text=_("Shown at tables and on leaderboards; your username if left empty."),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        username = cleaned.get("username") or ""
        if username:
            try:
                username_check(username)
            except NameRefused as refused:
                self.add_error("username", str(refused))
        if "display_name" in cleaned:
            try:
                cleaned["display_name"] = display_name_check(cleaned["display_name"], own_username=username)
            except NameRefused as refused:
                self.add_error("display_name", str(refused))
        return cleaned

    def signup(self, request: HttpRequest, user: User) -> None:
        user.display_name = self.cleaned_data.get("display_name", "")
        user.save(update_fields=["display_name"])
