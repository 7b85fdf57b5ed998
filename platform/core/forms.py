"""Form helpers shared by the apps' forms."""

from __future__ import annotations

from django import forms


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """A form's choice field, to set its choices per request (``form.fields`` holds them as plain ``Field``)."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a choice field")
    return field
