"""Inline SVG icons: drawn in the text's colour by every browser, with no emoji font and no request."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

#: 24 x 24 outlines, stroked in ``currentColor``
PATHS = {
    "play": '<rect x="3" y="5" width="11" height="15" rx="2"/><path d="M10 4.5 17.5 3l3.5 15-6 1.3"/>',
    "leaderboards": '<path d="M4 20h16M6 20V11h3v9M10.5 20V5h3v15M15 20v-6h3v6"/>',
    "events": '<path d="M8 4h8v5a4 4 0 0 1-8 0zM8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4M12 13v4M8 20h8"/>',
    "friends": '<circle cx="9" cy="8" r="3.5"/><path d="M2.5 20a6.5 6.5 0 0 1 13 0"/>'
    '<path d="M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 14a6.5 6.5 0 0 1 3 6"/>',
    "profile": '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
    "bell": '<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20.5a2 2 0 0 0 4 0"/>',
    "sound-on": '<path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11"/>',
    "sound-off": '<path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16.5 9.5l5 5M21.5 9.5l-5 5"/>',
    "logout": '<path d="M10 4H5v16h5M15 8l4 4-4 4M19 12H9"/>',
    "robot": '<rect x="5" y="8" width="14" height="11" rx="2"/><path d="M12 4v4M9 13h.01M15 13h.01M9.5 16h5"/>',
}


@register.simple_tag
def icon(name: str, css: str = "") -> str:
    """``{% icon "bell" %}``: decorative (aria-hidden); the link or button around it carries the words."""
    return format_html(
        '<svg class="icon icon-{}{}" viewBox="0 0 24 24" width="20" height="20" fill="none" '
        'stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" '
        'aria-hidden="true" focusable="false">{}</svg>',
        name,
        f" {css}" if css else "",
        mark_safe(PATHS[name]),  # our own constant markup
    )
