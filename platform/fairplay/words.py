"""A pair's evidence in words, in the active language: the queue and a pair's page read it in the moderator's,
``fairplay_scan`` renders it under ``translation.override("en")``. The games' words for their situations come
from the registry (``GameSpec.interaction_kinds``)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from fairplay.pairs import PairScore
from games import GAMES, get_game


def kind_label(kind: str) -> str:
    for name in GAMES:
        words = get_game(name).interaction_kinds.get(kind)
        if words:
            return gettext(words)
    return kind


def evidence(pair: PairScore) -> str:
    """One line: how often they sat together, the strongest kinds of sparing, reports."""
    parts = [
        ngettext(
            "%(n)d game together (%(ratio).1f times chance)",
            "%(n)d games together (%(ratio).1f times chance)",
            pair.games,
        )
        % {"n": pair.games, "ratio": pair.together_ratio}
    ]
    for k in sorted(pair.kinds, key=lambda k: -k.llr)[:2]:
        if k.llr > 0:
            parts.append(
                gettext("%(kind)s: spared each other %(spared)d times of %(chances)d (expected %(expected).1f)")
                % {"kind": kind_label(k.kind), "spared": k.spared, "chances": k.chances, "expected": k.expected}
            )
    if len(parts) == 1:
        parts.append(gettext("no more sparing than with others"))
    if pair.reports:
        parts.append(ngettext("%(n)d cheating report", "%(n)d cheating reports", pair.reports) % {"n": pair.reports})
    return "; ".join(parts)


def ago(when: datetime, now: datetime | None = None) -> str:
    """How long ago, in words: "just now" under a minute, then minutes, hours, days (Django's ``timesince`` says
    "0 minutes" for the first minute, and its Russian and Ukrainian units are nominative where "ago" needs the
    accusative: "1 минуту назад")."""
    seconds = max(0, int(((now or timezone.now()) - when).total_seconds()))
    if seconds < 60:
        return gettext("just now")
    if seconds < 3600:
        n = seconds // 60
        return ngettext("%(n)d minute ago", "%(n)d minutes ago", n) % {"n": n}
    if seconds < 2 * 86400:
        n = seconds // 3600
        return ngettext("%(n)d hour ago", "%(n)d hours ago", n) % {"n": n}
    n = seconds // 86400
    return ngettext("%(n)d day ago", "%(n)d days ago", n) % {"n": n}
