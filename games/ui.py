"""What a table page needs to know about a game's actions: button labels and how controls compose an action.

A game's registry entry carries one ``UI``; the platform renders buttons for
legal actions from it and never asks which game it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.words import ENGLISH, Said, Translator, render

SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANK_TEXT = {"T": "10"}

Action = dict[str, Any]


def card_text(code: str) -> str:
    """A card as a short label: "10♥"; a joker is 🃏."""
    if code.startswith("X"):
        return "🃏"
    return RANK_TEXT.get(code[0], code[0]) + SUIT_SYMBOL.get(code[1], code[1])


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def composed_label(verb: str, action: Mapping[str, Any]) -> str:
    """ "Attack 6♥ 6♠", or "Attack the selected cards": an English-only label (our games word theirs with ``say``)."""
    cards = action.get("cards")
    return f"{verb} {cards_text(list(cards))}" if cards else f"{verb} the selected cards"


def plain_label(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    return str(kind).replace("_", " ").capitalize() if kind else "?"


#: how a form field from the page becomes part of an action: "cards" (a list), "int", "bool" or "str"
FieldKind = str
#: what a composed action takes from the form unless its game says otherwise: the ticked cards
COMPOSED_FIELDS: Mapping[str, FieldKind] = {"cards": "cards"}


@dataclass(frozen=True)
class UI:
    #: the label of one legal action's button ("Beat 6♥ with 9♥") as ``games.words.Said``, in no language
    #: yet (a plain str is shown as it is); None falls back to the action's type
    label: Callable[[Mapping[str, Any]], Said | str | None] = lambda action: None
    #: action types whose cards are the cards ticked in the hand
    composed: frozenset[str] = frozenset()
    #: composed types whose legal actions list every legal combination of cards, so the page may narrow
    #: the hand to the cards that can join those ticked (an engine listing only representative
    #: combinations, a bluff being any cards at all, leaves its types out)
    every_combination: frozenset[str] = frozenset()
    #: one-card action types a click on the card itself can make
    quick: frozenset[str] = frozenset()
    #: the form fields that complete an action of a type, by type, with how each is read: a composed
    #: type takes the ticked ``cards`` unless named here; a type not named takes no field at all, so a
    #: plain button is never refused for what else the form holds (a card ticked beside "Done")
    form_fields: Mapping[str, Mapping[str, FieldKind]] = field(default_factory=dict)
    #: the template drawing the table's middle (relative to the templates folder); None: the generic board
    board: str | None = None
    #: the template telling players how to play (relative to the templates folder), shown on the rules page
    #: above the options; None: the page shows the game's summary and options only
    rules: str | None = None
    #: view keys naming a seat with a role, shown as a badge beside its name while the game runs:
    #: key -> (style, word), e.g. ``{"attacker": ("attack", "attacks")}``
    seat_badges: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: the same badges worded for a phase, by phase then key: Durak's defender "takes" once he picks up
    phase_badges: Mapping[str, Mapping[str, tuple[str, str]]] = field(default_factory=dict)
    #: the words of the roles a view names per seat (``view["roles"]``), as the badge beside a name reads them
    role_words: Mapping[str, Said] = field(default_factory=dict)
    #: a short help beside a legal action's button (a Biznes role: what it scores), a ``Said``; None: no help
    hint: Callable[[Mapping[str, Any]], Said | str | None] = lambda action: None

    #: keyboard shortcuts for plain buttons: action type -> (a letter key, what it does), listed in the help;
    #: the page reads the key where it sits on the keyboard, so it works in any layout
    keys: Mapping[str, tuple[str, Said]] = field(default_factory=dict)

    def fields_of(self, kind: str) -> Mapping[str, FieldKind]:
        """The form fields that complete an action of type ``kind`` (a button's own value carries the rest)."""
        named = self.form_fields.get(kind)
        if named is not None:
            return named
        return COMPOSED_FIELDS if kind in self.composed else {}

    def action_label(self, action: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
        """A legal action's button label in the translator's language (English by default)."""
        said = self.label(action)
        if isinstance(said, str):
            return said
        return render(said, tr) if said else plain_label(action)

    def role_word(self, role: str, tr: Translator = ENGLISH) -> str:
        """A seat's role ("thief") in the translator's language; a role the game does not word reads as it is."""
        said = self.role_words.get(role)
        return render(said, tr) if said else role

    def badges(self, view: Mapping[str, Any], seat: int) -> list[tuple[str, str]]:
        """The role badges of ``seat`` in ``view`` while the game runs: (style, word) each."""
        if view.get("over"):
            return []
        worded = {**self.seat_badges, **self.phase_badges.get(str(view.get("phase")), {})}
        return [badge for key, badge in worded.items() if view.get(key) == seat]
