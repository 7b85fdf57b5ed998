"""A rating-history line chart as inline SVG, drawn on the server (no JavaScript chart library)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html

WIDTH, HEIGHT, PAD = 320, 90, 4
MAX_POINTS = 200


def history_svg(values: Sequence[float], label: str) -> str:
    """A polyline of ``values`` (oldest first), its range written at the left; '' for fewer than two points."""
    if len(values) < 2:
        return ""
    if len(values) > MAX_POINTS:  # keep the shape, the first and the latest point
        step = (len(values) - 1) / (MAX_POINTS - 1)
        values = [values[round(i * step)] for i in range(MAX_POINTS)]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    dx = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * dx:.1f},{PAD + (high - v) / span * (HEIGHT - 2 * PAD):.1f}" for i, v in enumerate(values)
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{label}">'
        '<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{points}"/>'
        '<text x="{p}" y="10" font-size="9">{high}</text><text x="{p}" y="{yb}" font-size="9">{low}</text></svg>',
        w=WIDTH,
        h=HEIGHT,
        label=label,
        points=points,
        p=PAD,
        high=round(high),
        low=round(low),
        yb=HEIGHT - PAD,
    )
