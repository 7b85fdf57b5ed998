"""A pair's evidence in words, in the active language: the queue and a pair's page read it in the moderator's,
``fairplay_scan`` renders it under ``translation.override("en")``. The games' words for their situations come
from the registry (``GameSpec.interaction_kinds``)."""

from __future__ import annotations

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
