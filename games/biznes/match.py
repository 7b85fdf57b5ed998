"""B10: a Biznes match, a series of deals with running totals (the score sheet).

Pure Python, JSON round-trip (``to_json``/``from_json``) so the platform can
store it and show the cumulative score sheet.

Decisions where the rules are silent:

- ``length`` counts *played* deals. A void deal (everyone passed, B1) is
  dealt again by the same dealer; it is kept on the sheet (marked ``void``,
  all zeros) but does not count towards the length, so a match of 8 deals
  always has 8 scored deals.
- The default length is twice round the table: ``2 * seats`` deals.
- Standings use shared places ("1224" ranking): a seat's place is one more
  than the number of seats with a strictly higher total.
- Totals are kept in integers of halves internally; JSON shows numbers (an
  int when whole, else ``x.5``), and ``from_json`` rebuilds the totals from
  the recorded deals, so they can never drift.

>>> m = Match(seats=4)
>>> state = m.new_deal(seed=1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.biznes.scoring import to_halves, to_number
from games.biznes.state import BiznesState
from games.errors import InvalidOptions

MAX_LENGTH = 1000


class Match:
    def __init__(
        self,
        seats: int,
        options: Mapping[str, Any] | None = None,
        length: int | None = None,
        dealer: int = 0,
    ) -> None:
        # validates seats, options (deck with seats, widow_open) and dealer at once
        probe = BiznesState.new(options=options, seats=seats, dealer=dealer, seed=0)
        if length is None:
            length = 2 * seats  # B10: by default twice round the table
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
            raise InvalidOptions(f"length: a number of deals 1..{MAX_LENGTH}, not {length!r}")
        self.seats: int = seats
        self.options: dict[str, Any] = probe.options
        self.length: int = length
        self.first_dealer: int = dealer
        #: who deals the next deal
        self.dealer: int = dealer
        #: every deal in order, void ones included: dealer, void, scores, totals after it, ...
        self.deals: list[dict[str, Any]] = []
        #: running totals in halves
        self.totals: list[int] = [0] * seats

    # -- progress --------------------------------------------------------------
    @property
    def played(self) -> int:
        """Deals that count towards the length (void deals do not)."""
        return sum(1 for d in self.deals if not d["void"])

    def is_over(self) -> bool:
        return self.played >= self.length

    def new_deal(self, deck: list[str] | None = None, seed: int | None = None) -> BiznesState:
        """The next deal, dealt by the current dealer."""
        if self.is_over():
            raise InvalidOptions("the match is over")
        return BiznesState.new(options=self.options, seats=self.seats, dealer=self.dealer, deck=deck, seed=seed)

    def record(self, deal: BiznesState | Mapping[str, Any]) -> dict[str, Any]:
        """Add a finished deal (the state, or its ``result()``) and move the dealer.

        Returns the sheet row added. A void deal leaves the dealer in place.
        """
        if self.is_over():
            raise InvalidOptions("the match is over")
        if isinstance(deal, BiznesState):
            if deal.seats != self.seats or deal.dealer != self.dealer or deal.options != self.options:
                raise InvalidOptions("deal: not the deal this match is waiting for (seats, dealer or options differ)")
            result = deal.result()
        else:
            result = dict(deal)
        if result is None:
            raise InvalidOptions("deal: not over yet")
        scores = result.get("scores")
        if not isinstance(scores, list) or len(scores) != self.seats:
            raise InvalidOptions(f"deal: needs one score per seat ({self.seats})")
        halves = [to_halves(x) for x in scores]
        void = bool(result.get("void"))
        for s, h in enumerate(halves):
            self.totals[s] += h
        row = {
            "number": None if void else self.played + 1,
            "dealer": self.dealer,
            "void": void,
            "caught": bool(result.get("caught")),
            "made": bool(result.get("made")),
            "contract": result.get("contract"),
            "roles": list(result.get("roles") or [None] * self.seats),
            "tricks": list(result.get("tricks") or [0] * self.seats),
            "scores": [to_number(h) for h in halves],
            "totals": [to_number(t) for t in self.totals],
        }
        self.deals.append(row)
        if not void:  # B10: the deal passes to the left; a void deal is dealt again by the same dealer
            self.dealer = (self.dealer + 1) % self.seats
        return row

    # -- standings ---------------------------------------------------------------
    def standings(self) -> list[dict[str, Any]]:
        """Seats by total, highest first; ties share a place (B10)."""
        order = sorted(range(self.seats), key=lambda s: (-self.totals[s], s))
        return [
            {
                "seat": s,
                "total": to_number(self.totals[s]),
                "place": 1 + sum(1 for t in self.totals if t > self.totals[s]),
            }
            for s in order
        ]

    def winners(self) -> list[int]:
        """The seats in first place (several on a tie); empty until the match is over."""
        if not self.is_over():
            return []
        best = max(self.totals)
        return [s for s in range(self.seats) if self.totals[s] == best]

    # -- JSON ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": "biznes",
            "kind": "match",
            "seats": self.seats,
            "options": dict(self.options),
            "length": self.length,
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "played": self.played,
            "over": self.is_over(),
            "deals": [dict(d) for d in self.deals],
            "totals": [to_number(t) for t in self.totals],
            "standings": self.standings(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        if not isinstance(data, Mapping) or data.get("game") != "biznes" or data.get("kind") != "match":
            raise InvalidOptions("not a saved biznes match")
        try:
            match = cls(data["seats"], data["options"], data["length"], data["first_dealer"])
            for row in data["deals"]:
                if row["dealer"] != match.dealer:
                    raise InvalidOptions(f"match: deal dealt by seat {row['dealer']}, expected {match.dealer}")
                match.record(row)
        except (KeyError, TypeError) as e:
            raise InvalidOptions(f"not a saved biznes match: {e}") from e
        if match.dealer != data.get("dealer", match.dealer):
            raise InvalidOptions("match: the saved dealer does not follow from the deals")
        return match
