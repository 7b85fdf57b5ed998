from django import forms
from django.utils.translation import gettext_lazy as _


class SignupForm(forms.Form):
    """Extra field on allauth's sign-up form (``ACCOUNT_SIGNUP_FORM_CLASS``)."""

    display_name = forms.CharField(
        max_length=40,
        required=False,
        label=_("Display name"),
        help_text=_("Shown at tables and on leaderboards; your username if left empty."),
    )

    def signup(self, request, user) -> None:
        user.display_name = self.cleaned_data.get("display_name", "").strip()
        user.save(update_fields=["display_name"])
