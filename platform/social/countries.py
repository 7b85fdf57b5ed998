"""The optional country on a profile: ISO codes named (and translated) by django-countries."""

from __future__ import annotations

from django_countries import countries


def country_choices() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in countries]


def country_name(code: str) -> str:
    return str(countries.name(code)) if code else ""
