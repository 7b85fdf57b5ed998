"""Biznes from the public record: roles taken beside a seat, and tricks let go to him.

- ``banker``: the declarer asked for a banker and the role was still open; a
  player choosing his role joined him as banker (spared) or did not;
- ``mafia``: a seat had said *mafia*; a later player joined him (spared) or did not;
- ``trick``: a player followed while another seat's card was winning the trick
  and either beat it or let it stand (spared); compared within the roles of the
  two (declarer's side, mafia, thief, policeman), so letting a partner of the
  rules (declarer and banker, two mafiosi) win counts apart from letting an
  opponent win. Every card played is public (a joker as the card it became), so
  who was winning follows from the trump, which the winning bid and any change name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.biznes.rules import trick_winner
from games.fairplay import Interaction, Record

SIDE = {"declarer": "D", "banker": "D", "mafia": "M", "thief": "T", "policeman": "P"}
ROLES = ("banker", "thief", "policeman", "mafia")


def interactions(record: Record, seats: int, options: Mapping[str, Any]) -> list[Interaction]:
    out: list[Interaction] = []
    bidder: int | None = None
    trump: str | None = None
    declarer: int | None = None
    banker: int | None = None
    asked = False
    roles: dict[int, str] = {}
    trick: list[tuple[int, str, str]] = []
    for i, (seat, action) in enumerate(record):
        kind = action.get("type")
        if kind == "bid":
            bidder, trump = seat, action.get("suit")
        elif kind == "declare":
            declarer, asked = bidder, bool(action.get("banker"))
            if declarer is not None:
                roles = {declarer: "declarer"}
        elif kind == "role" and declarer is not None:
            role = str(action.get("role"))
            if asked and banker is None:
                out.append(Interaction(i, seat, declarer, "banker", "asked", role == "banker", role, ROLES))
            for other, said in roles.items():
                if said == "mafia":
                    out.append(Interaction(i, seat, other, "mafia", "invited", role == "mafia", role, ROLES))
            roles[seat] = role
            if role == "banker":
                banker = seat
        elif kind == "trump":
            trump = action.get("suit")
            if banker is not None and declarer is not None:
                declarer, banker = banker, declarer
        elif kind == "play":
            card = str(action.get("card"))
            played = (seat, card, str(action.get("as") or card))
            if trick:
                leading = trick_winner(trick, trump)
                if leading != seat:
                    kept = trick_winner([*trick, played], trump) == leading
                    relation = _relation(roles, seat, leading)
                    chose = "let it win" if kept else "beat it"
                    out.append(Interaction(i, seat, leading, "trick", relation, kept, chose, ("beat it", "let it win")))
            trick.append(played)
            if len(trick) == seats:
                trick = []
    return out


def _relation(roles: Mapping[int, str], actor: int, target: int) -> str:
    """The two seats' sides at the table: "team" for partners by the rules, else e.g. "TD" (thief on declarer)."""
    mafia = sum(1 for r in roles.values() if r == "mafia")

    def side(seat: int) -> str:
        role = roles.get(seat, "")
        if role == "mafia" and mafia < 2:
            role = "thief"  # B4: a lone mafioso is a thief
        return SIDE.get(role, "?")

    a, t = side(actor), side(target)
    return "team" if a == t and a in ("D", "M") else a + t
