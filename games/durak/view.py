"""What a Durak state shows and saves: views, result, move-log wording,
timeouts, JSON snapshots and the match helper (D11).

Every view is built in ``view()`` and nowhere else. All cards on the table,
the turned trump and shown trumps are public in Durak; a hand is seen only by
its owner; stock and discard are counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.base import Action
from games.cards import RANK_VALUE, SUIT_OF, card_name, sort_hand
from games.durak.tables import DUMMY, beats_table
from games.errors import IllegalAction, InvalidOptions

if TYPE_CHECKING:
    from games.durak.state import DurakState

#: fields saved as they are by ``to_json`` (lists are copied)
_FIELDS = (
    "seats",
    "dealer",
    "redeals",
    "turned",
    "trump",
    "trump_card",
    "trump_drawn_by",
    "discarded",
    "fool",
    "draw",
    "losing_team",
    "phase",
    "attacker",
    "defender",
    "leader",
    "limit",
    "throw_right",
    "passes",
    "open",
)
_LISTS = ("deck", "stock", "discard", "out", "shows", "attacks", "covers", "order", "takers")


def _words(cards: list[str]) -> str:
    return ", ".join(card_name(c) for c in cards)


class ViewMixin:
    """The read-only half of ``DurakState``."""

    def view(self: DurakState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self.check_seat(seat)
        over = self.phase == "over"
        v: dict[str, Any] = {
            "game": "durak",
            "seats": self.seats,
            "dealer": self.dealer,
            "hand_sizes": [len(h) for h in self.hands],
            "to_act": self.to_act(),
            "phase": self.phase,
            "over": over,
            "result": self.result(),
            "trump": self.trump,
            "trump_card": self.trump_card,
            "trump_drawn_by": self.trump_drawn_by,
            "stock": len(self.stock),
            "discard": len(self.discard),
            "table": [{"attack": a, "cover": c} for a, c in zip(self.attacks, self.covers, strict=True)],
            "attacker": None if over else self.attacker,
            "defender": None if over else self.defender,
            "leader": None if over else self.leader,
            "throw_right": self.throw_right,
            "limit": self.limit,
            "finished": [s for group in self.finished for s in group],
            "in_game": [not o for o in self.out],
            "shows": list(self.shows),
            "redeals": self.redeals,
            "options": dict(self.options),
        }
        if self.teams:
            v["teams"] = [[s for s in range(self.seats) if s % 2 == t] for t in (0, 1)]
        if seat is not None:
            v["seat"] = seat
            v["hand"] = sort_hand(self.hands[seat], self.trump)
        return v

    def result(self: DurakState) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return {
            "fool": self.fool,
            "draw": self.draw,
            "places": [list(g) for g in self.finished],
            "losing_team": self.losing_team,
        }

    def zones(self: DurakState) -> dict[str, list[str]]:
        z = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        z["stock"] = list(self.stock)
        z["table"] = self.attacks + [c for c in self.covers if c is not None]
        z["discard"] = list(self.discard)
        return z

    def default_action(self: DurakState, seat: int) -> Action:
        """Turn timeouts: lead the lowest card (non-trump first), take, or say done."""
        if seat not in self.to_act():
            raise IllegalAction(f"seat {seat} is not to act")
        if self.phase == "attack":
            trump = self.trump
            low = min(self.hands[seat], key=lambda c: (c == DUMMY, SUIT_OF[c] == trump, RANK_VALUE[c]))
            return {"type": "attack", "cards": [low]}
        if self.phase == "defense" and seat == self.defender:
            return {"type": "take"}
        return {"type": "done"}

    def describe(self: DurakState, seat: int, action: Action) -> str:
        if not isinstance(action, dict):
            return "makes an invalid move"
        kind = action.get("type")
        cards = action.get("cards")
        cards = [c for c in cards if isinstance(c, str) and c in RANK_VALUE] if isinstance(cards, list) else []
        card = action.get("card")
        card = card_name(card) if isinstance(card, str) and card in RANK_VALUE else "?"
        if kind == "attack":
            return f"leads {_words(cards)}"
        if kind == "throw":
            return f"throws in {_words(cards)}"
        if kind == "cover":
            attack = action.get("attack")
            attack = card_name(attack) if isinstance(attack, str) and attack in RANK_VALUE else "?"
            return f"covers {attack} with {card}"
        if kind == "done":
            return "is done throwing in" if self.phase == "taking" else "says done"
        if kind == "take":
            return "takes the cards"
        if kind == "transfer":
            return f"transfers the attack with {card}"
        if kind == "show":
            return f"transfers the attack by showing {card}"
        return "makes an invalid move"

    # -- snapshots ------------------------------------------------------------
    def to_json(self: DurakState) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "durak", "options": dict(self.options)}
        for f in _FIELDS:
            data[f] = getattr(self, f)
        for f in _LISTS:
            data[f] = list(getattr(self, f))
        data["hands"] = [list(h) for h in self.hands]
        data["ranks"] = sorted(self.ranks)
        data["finished"] = [list(g) for g in self.finished]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DurakState:
        if data.get("game") != "durak":
            raise InvalidOptions("not a saved durak state")
        self = cls.__new__(cls)
        try:
            self.options = dict(data["options"])
            for f in _FIELDS:
                setattr(self, f, data[f])
            for f in _LISTS:
                setattr(self, f, list(data[f]))
            self.hands = [list(h) for h in data["hands"]]
            self.ranks = set(data["ranks"])
            self.finished = [list(g) for g in data["finished"]]
            self._configure()
        except (KeyError, TypeError) as e:
            raise InvalidOptions(f"not a complete saved durak state: {e!r}") from e
        self.beats = beats_table(self.trump, self.options["spades_by_spades"])
        return self

    def copy(self: DurakState) -> DurakState:
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        for f in _LISTS:
            d[f] = list(d[f])
        d["options"] = dict(self.options)
        d["hands"] = [list(h) for h in self.hands]
        d["ranks"] = set(self.ranks)
        d["finished"] = [list(g) for g in self.finished]
        return new

    # -- D11 -----------------------------------------------------------------
    def next_game(self: DurakState, fool_rule: str = "under", **choices: Any) -> tuple[int, dict[str, Any]]:
        """D11: (dealer, options) of the next game of a match.

        The fool deals; ``fool_rule="under"``: the player to his right attacks
        first, so the fool defends first; ``"from"``: the player to his left.
        After a draw the same dealer deals again and D3 chooses the attacker.
        In teams without a single fool, the losing team's first player still
        holding cards clockwise from the dealer's left counts as the fool.
        """
        if choices:
            raise InvalidOptions(f"unknown choice {sorted(choices)[0]!r} (known: fool_rule)")
        if fool_rule not in ("under", "from"):
            raise InvalidOptions(f"fool_rule: must be 'under' or 'from', not {fool_rule!r}")
        if self.phase != "over":
            raise IllegalAction("the game is not over")
        options = dict(self.options)
        fool = self.fool
        if fool is None and self.losing_team is not None:
            n = self.seats
            fool = next(
                s
                for s in ((self.dealer + 1 + j) % n for j in range(n))
                if s % 2 == self.losing_team and not self.out[s]
            )
        if fool is None:  # a draw: D3 again
            options["first_attacker"] = None
            return self.dealer, options
        step = -1 if fool_rule == "under" else 1
        options["first_attacker"] = (fool + step) % self.seats
        return fool, options
