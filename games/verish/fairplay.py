"""Believe It or Not from the public record: whose placements a player doubted.

After a claim or an addition the next player answers: believe, doubt, or add
cards of his own (passing the choice on). The placement he answers was made by
the last seat to claim or add, which the record shows. ``doubt``: he doubted
that seat (or spared him: believed, or added); compared within the size of the
placement answered (one card, two, three or more), since a bigger placement is
doubted more often by everyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.fairplay import Interaction, Record

ANSWERS = ("believe", "doubt", "add")


def interactions(record: Record, seats: int, options: Mapping[str, Any]) -> list[Interaction]:
    out: list[Interaction] = []
    placer: int | None = None
    count = 0
    for i, (seat, action) in enumerate(record):
        kind = action.get("type")
        if kind in ANSWERS and placer is not None and placer != seat:
            situation = f"count{min(count, 3)}"
            out.append(Interaction(i, seat, placer, "doubt", situation, kind != "doubt", str(kind), ANSWERS))
        if kind in ("claim", "add"):
            placer, count = seat, int(action.get("count") or 0)
        elif kind in ("believe", "doubt"):
            placer = None
    return out
