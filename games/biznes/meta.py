"""What the platform reads about Biznes: the deal's outcome, the match sheet (B10), the secret discard, labels.

An unfinished deal (a tournament round's deadline) scores nothing: a deal's
points are defined only once it is played out (B8), so every seat gets 0 for
it and all share the place; the match's finished deals keep their points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.biznes.match import Match
from games.biznes.scoring import to_halves
from games.biznes.state import BiznesState
from games.errors import InvalidOptions
from games.outcome import Outcome, Placing
from games.outcome import by_points as _by_points
from games.sheets import Sheet
from games.ui import SUIT_SYMBOL, UI, card_text, cards_text
from games.words import Said, say, verbatim

ROLE_TEXT = {
    "banker": say("Banker"),
    "thief": say("Thief"),
    "policeman": say("Policeman"),
    "mafia": say("Mafia"),
}


def placings(result: Mapping[str, Any], seats: int, options: Mapping[str, Any]) -> Outcome:
    """One deal by its scores; a match is placed by its sheet (``BiznesSheet.standings``)."""
    return _by_points([to_halves(x) for x in result.get("scores") or [0] * seats], deals=1)


def score_position(state: Any) -> Outcome:
    """An unfinished deal scores 0 for every seat (see the module docstring)."""
    return _by_points([0] * state.seats, deals=0)


def public_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """The declarer's discard is secret (B2): only its size is public."""
    if action.get("type") == "discard":
        return {"type": "discard", "count": len(action.get("cards") or [])}
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}


def match_length(seats: int) -> int:
    return 2 * seats  # B10: twice round the table


class BiznesSheet(Sheet):
    """The engine's cumulative ``Match``: totals in exact halves; a void deal does not count (B10)."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.length = match.length

    def record(self, state: Any) -> None:
        if not isinstance(state, BiznesState):
            raise InvalidOptions("not a Biznes deal")
        self.match.record(state)

    def is_over(self) -> bool:
        return self.match.is_over()

    def to_json(self) -> dict[str, Any]:
        return {"biznes": self.match.to_json()}

    def rows(self) -> dict[str, Any]:
        data = self.match.to_json()
        return {
            "kind": "points",
            "rows": data["deals"],
            "totals": data["totals"],
            "standings": data["standings"],
            "length": data["length"],
        }

    def standings(self) -> dict[int, Placing]:
        out = _by_points(list(self.match.totals), deals=self.match.played)
        return {
            s: p if self.is_over() else Placing(p.place, points_halves=p.points_halves, deals=p.deals)
            for s, p in out.placings.items()
        }

    def rated_outcome(
        self, result: Mapping[str, Any], seats: int, options: Mapping[str, Any], number: int
    ) -> Outcome | None:
        # the match is rated once, by the deal that ended it
        if not self.is_over() or len(self.match.deals) != number:
            return None
        return _by_points(list(self.match.totals), deals=self.match.played)


def new_sheet(seats: int, options: Mapping[str, Any], length: int, dealer: int) -> BiznesSheet:
    return BiznesSheet(Match(seats=seats, options=options, length=length, dealer=dealer))


def load_sheet(data: Mapping[str, Any]) -> BiznesSheet:
    if not isinstance(data, Mapping) or "biznes" not in data:
        raise InvalidOptions("not a saved biznes sheet")
    return BiznesSheet(Match.from_json(data["biznes"]))


def label(action: Mapping[str, Any]) -> Said | None:
    kind = action.get("type")
    if kind == "discard":
        cards = action.get("cards")
        return say("Discard %(cards)s", cards=cards_text(list(cards))) if cards else say("Discard the selected cards")
    if kind == "bid":
        return verbatim(f"{action['tricks']} {SUIT_SYMBOL[action['suit']]}")
    if kind in ("pass", "done"):
        return say("Pass")
    if kind == "declare":
        return say("With a banker") if action.get("banker") else say("Alone")
    if kind == "role":
        role = str(action.get("role"))
        return ROLE_TEXT.get(role) or verbatim(role)
    if kind == "change":
        return say("Change trump")
    if kind == "trump":
        return say("Trump %(suit)s", suit=SUIT_SYMBOL[action["suit"]])
    if kind == "play":
        if action.get("as"):
            return say("Play %(card)s as %(as_card)s", card=card_text(action["card"]), as_card=card_text(action["as"]))
        return say("Play %(card)s", card=card_text(action["card"]))
    return None


#: a short help beside each role's button, the declarer's choice and the trump change (B3, B4, B6, B8), for players
#: new to the game
HINTS: dict[tuple[str, object], Said] = {
    ("pass", None): say("No bid from you in this auction; if everyone passes, the deal is void."),
    ("declare", False): say("No partner; a bigger premium if you make it."),
    ("declare", True): say("Ask the others for a banker who plays and scores with you; a smaller premium."),
    # a declarer holding nothing but trumps is offered only this button (B7): the hint says why
    ("change", None): say(
        "Once a deal, before you lead: a new trump is named by your banker, who then becomes the declarer, or by "
        "you if you play alone. With nothing but trumps in hand you must call it."
    ),
    ("role", "banker"): say("Partner of the declarer: you score exactly what the declarer scores."),
    ("role", "thief"): say("You score one point for each trick you take."),
    ("role", "policeman"): say(
        "You score the tricks the contract leaves the others (less half the premium), "
        "minus every thief's tricks and the mafia's if it scores."
    ),
    ("role", "mafia"): say(
        "Join with the others who say mafia: if each of you takes a trick, each scores all your "
        "tricks together; a lone mafioso plays as a thief."
    ),
}


def hint(action: Mapping[str, Any]) -> Said | None:
    kind = str(action.get("type"))
    return HINTS.get((kind, action.get("banker") if kind == "declare" else action.get("role")))


UI_META = UI(
    label=label,
    composed=frozenset({"discard"}),
    every_combination=frozenset({"discard"}),
    quick=frozenset({"play"}),
    # a joker's button carries its card; the picker beside it names what the joker becomes
    form_fields={"discard": {"cards": "cards"}, "play": {"as": "str"}},
    board="tables/boards/biznes.html",
    rules="rules/biznes.html",
    hint=hint,
    keys={"pass": ("P", say("Pass"))},
    role_words={
        "declarer": say("declarer"),
        "banker": say("banker"),
        "thief": say("thief"),
        "policeman": say("policeman"),
        "mafia": say("mafia"),
    },
)
