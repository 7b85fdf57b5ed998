"""Cards and actions in words and symbols, for the table pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import format_html

from tables.labels import KIND_TEXT, action_label, card_text

register = template.Library()
RED = {"D", "H"}


@register.filter
def card(code: str | None) -> str:
    if not code:
        return ""
    colour = "red" if code[-1] in RED else ("joker" if code.startswith("X") else "black")
    return format_html('<span class="card {}" data-card="{}">{}</span>', colour, code, card_text(code))


@register.filter
def label(action: dict[str, Any], game: str) -> str:
    return action_label(game, action)


@register.filter
def as_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@register.filter
def at(sequence, index):
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def kind_name(kind: str) -> str:
    return KIND_TEXT.get(kind, kind)
