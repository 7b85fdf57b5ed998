"""The match score sheet per game: what each finished game adds, and when the match ends.

Durak counts how often each player was the fool (D11), Believe It or Not
counts losses (V6), Biznes keeps the engine's cumulative ``Match`` (B10) with
half points exact.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.biznes.match import Match as BiznesMatch


def sheet_new(game: str, seats: int, options: dict[str, Any], length: int, dealer: int) -> dict[str, Any]:
    if game == "biznes":
        return {"biznes": BiznesMatch(seats=seats, options=options, length=length, dealer=dealer).to_json()}
    return {"length": length, "games": [], "counts": [0] * seats}


def sheet_record(game: str, sheet: dict[str, Any], state: State) -> dict[str, Any]:
    """The sheet after the finished game ``state``."""
    result = state.result() or {}
    if game == "biznes":
        match = BiznesMatch.from_json(sheet["biznes"])
        match.record(state)
        return {"biznes": match.to_json()}
    sheet = {**sheet, "games": list(sheet["games"]), "counts": list(sheet["counts"])}
    loser = result.get("fool") if game == "durak" else result.get("loser")
    sheet["games"].append({"loser": loser, "draw": bool(result.get("draw")), "losing_team": result.get("losing_team")})
    if loser is not None:
        sheet["counts"][loser] += 1
    return sheet


def sheet_over(game: str, sheet: dict[str, Any]) -> bool:
    if game == "biznes":
        return BiznesMatch.from_json(sheet["biznes"]).is_over()
    return len(sheet["games"]) >= sheet["length"]


def sheet_rows(game: str, sheet: dict[str, Any]) -> dict[str, Any]:
    """What the page shows: per-game rows and per-seat totals."""
    if game == "biznes":
        data = BiznesMatch.from_json(sheet["biznes"]).to_json()
        return {
            "kind": "points",
            "rows": data.get("deals", []),
            "totals": data.get("totals", []),
            "standings": data.get("standings"),
            "length": data.get("length"),
        }
    label = "fool" if game == "durak" else "lost"
    return {"kind": label, "rows": sheet["games"], "totals": sheet["counts"], "length": sheet["length"]}
