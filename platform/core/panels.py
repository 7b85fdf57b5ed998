"""Parts of one app's page drawn by another app, registered in the other app's ``ready()``.

A page's owner (the table page, a profile) keeps a ``core.hooks.Registry`` of ``Panel``s and draws each with
``panels_render``; an app above it adds its panel (the chat, the report form, friend requests), so the page's
app imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString


@dataclass(frozen=True)
class Panel:
    """``template`` drawn with the page's context plus what ``context(request, page)`` adds; not drawn at all
    when ``context`` answers None (nothing to show this reader)."""

    template: str
    context: Callable[[HttpRequest, Mapping[str, Any]], Mapping[str, Any] | None]


def panels_render(panels: Iterable[Panel], request: HttpRequest, page: Mapping[str, Any]) -> list[SafeString]:
    """Each panel's HTML, in the registry's order, for the page to place where it keeps them."""
    drawn = []
    for panel in panels:
        extra = panel.context(request, page)
        if extra is not None:
            # a template's output is already safe HTML (``SafeString``)
            drawn.append(render_to_string(panel.template, {**page, **extra}, request=request))
    return drawn
