from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import SignupForm
from accounts.models import User
from accounts.names import NAME_MAX, NameRefused, display_name_check
from core.forms import choice_field
from core.text import FreeTextField
from social.models import AVATARS, BIO_MAX


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=NAME_MAX, required=False, strip=False, label=_("Display name"))
    bio = FreeTextField(
        max_length=BIO_MAX,
        required=False,
        label=_("About me"),
        widget=forms.Textarea(attrs={"rows": 3}),
        multiline=True,
    )
    avatar = forms.ChoiceField(choices=AVATARS, widget=forms.RadioSelect, label=_("Avatar"))
    country = forms.ChoiceField(choices=(), required=False, label=_("Country"))

    def __init__(self, *args: Any, user: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        from social.countries import country_choices

        choice_field(self, "country").choices = [("", _("— not shown —")), *country_choices()]
        self.fields["display_name"].help_text = SignupForm.base_fields["display_name"].help_text

    def clean_display_name(self) -> str:
        # sign-up's rules (accounts.names); his own username and current name are not "another player's"
        try:
            return display_name_check(self.cleaned_data.get("display_name", ""), user=self.user)
        except NameRefused as refused:
            raise forms.ValidationError(str(refused)) from None
