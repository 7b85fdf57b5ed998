"""A rating-history line chart as inline SVG, drawn on the server (no JavaScript chart library)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime

from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

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


#: the combined chart: size, the margins that hold the axes' labels, a colour per game (in registry order)
CHART_W, CHART_H, LEFT, RIGHT, TOP, BOTTOM = 560, 200, 44, 10, 26, 24
COLOURS = ("#1f6f43", "#b5462b", "#2d5fa8", "#8a5a00", "#6b3fa0")


def ratings_chart(series: Sequence[tuple[str, Sequence[tuple[datetime, float]]]], label: str) -> str:
    """Every game's rating over time on one chart: dated x axis, rating y axis, one line and legend entry per
    game; '' when no game has two points."""
    drawn = [(name, points) for name, points in series if len(points) >= 2]
    if not drawn:
        return ""
    drawn = [(name, points if len(points) <= MAX_POINTS else _thin(points)) for name, points in drawn]
    times = [t.timestamp() for _, points in drawn for t, _ in points]
    values = [v for _, points in drawn for _, v in points]
    t0, t1 = min(times), max(times)
    low, high = _nice_floor(min(values)), _nice_ceil(max(values))
    tspan, vspan = (t1 - t0) or 1.0, (high - low) or 1.0
    plot_w, plot_h = CHART_W - LEFT - RIGHT, CHART_H - TOP - BOTTOM

    def x(t: datetime) -> float:
        return LEFT + (t.timestamp() - t0) / tspan * plot_w

    def y(v: float) -> float:
        return TOP + (high - v) / vspan * plot_h

    parts = [
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
    ]
    for v in (low, (low + high) / 2, high):
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y(v):.1f}" x2="{LEFT + plot_w}" y2="{y(v):.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 3:.1f}" text-anchor="end">{round(v)}</text>')
    ticks = 1 if t1 == t0 else 4
    for i in range(ticks):
        at = datetime.fromtimestamp(t0 + (t1 - t0) * i / max(ticks - 1, 1), tz=UTC)
        anchor = "start" if i == 0 else "end" if i == ticks - 1 else "middle"
        parts.append(
            f'<text class="tick" x="{x(at):.1f}" y="{CHART_H - 6}" text-anchor="{anchor}">'
            f"{conditional_escape(date_format(at, 'SHORT_DATE_FORMAT'))}</text>"
        )
    for i, (name, points) in enumerate(drawn):
        colour = COLOURS[i % len(COLOURS)]
        line = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in points)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        lx = LEFT + i * 130
        parts.append(f'<rect x="{lx}" y="6" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text class="legend" x="{lx + 16}" y="16">{conditional_escape(name)}</text>')
    return mark_safe(  # every text above is escaped, the rest is numbers
        f'<svg class="rating-chart ratings-chart" viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
        f'aria-label="{conditional_escape(label)}">' + "".join(parts) + "</svg>"
    )


def _thin(points: Sequence[tuple[datetime, float]]) -> list[tuple[datetime, float]]:
    step = (len(points) - 1) / (MAX_POINTS - 1)
    return [points[round(i * step)] for i in range(MAX_POINTS)]


def _nice_floor(v: float) -> float:
    return math.floor(v / 10) * 10


def _nice_ceil(v: float) -> float:
    return math.ceil(v / 10) * 10 if math.ceil(v / 10) * 10 > v else v + 10
