from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import SignupForm
from core.text import FreeTextField
from social.models import AVATARS

BIO_MAX = 280


def display_name_errors(value: str) -> tuple[str, list[str]]:
    """The display name as sign-up cleans it, and sign-up's errors for it (the same checks, by construction)."""
    form = SignupForm(data={"display_name": value})
    form.is_valid()
    return form.cleaned_data.get("display_name", value), list(form.errors.get("display_name", []))


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=40, required=False, label=_("Display name"))
    bio = FreeTextField(
        max_length=BIO_MAX,
        required=False,
        label=_("About me"),
        widget=forms.Textarea(attrs={"rows": 3}),
        multiline=True,
    )
    avatar = forms.ChoiceField(choices=AVATARS, widget=forms.RadioSelect, label=_("Avatar"))
    country = forms.ChoiceField(choices=(), required=False, label=_("Country"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from social.countries import country_choices

        self.fields["country"].choices = [("", _("— not shown —")), *country_choices()]
        self.fields["display_name"].help_text = SignupForm.base_fields["display_name"].help_text

    def clean_display_name(self) -> str:
        value, errors = display_name_errors(self.cleaned_data.get("display_name", ""))
        if errors:
            raise forms.ValidationError(errors)
        return (value or "").strip()
