"""The play box's tag: ``tables/_play.html`` is a seat's play box as ``tables.rendering.play_html`` makes it."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.rendering import play_html

register = template.Library()


@register.simple_tag(takes_context=True)
def play_box(context: Any) -> SafeString:
    return play_html(context)
