"""The games' words on the table page, in the reader's language: button labels ("Beat 6♥ with 9♥"), their
hints, the move log, card and kind names.

A game builds its words as ``games.words.Said`` (no language); they are rendered here, with Django's
gettext for the language active when a page or a socket draws, never when they are stored or shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games import get_game
from games.ui import RANK_TEXT, SUIT_SYMBOL, card_text, cards_text
from games.words import Said, Translator, render

__all__ = [
    "KIND_TEXT",
    "RANK_TEXT",
    "SUIT_SYMBOL",
    "TEAM_LABELS",
    "action_hint",
    "action_label",
    "card_text",
    "card_title",
    "cards_text",
    "said_text",
]
#: teams are told apart by colour (``team-0``, ``team-1`` in the CSS) and named by it
TEAM_LABELS = (pgettext_lazy("team", "Blue team"), pgettext_lazy("team", "Orange team"))
#: a rank or a suit as a kind of cards (a Verish claim's "kings", a trump's "hearts")
KIND_TEXT = {
    "2": gettext_lazy("twos"),
    "3": gettext_lazy("threes"),
    "4": gettext_lazy("fours"),
    "5": gettext_lazy("fives"),
    "6": gettext_lazy("sixes"),
    "7": gettext_lazy("sevens"),
    "8": gettext_lazy("eights"),
    "9": gettext_lazy("nines"),
    "T": gettext_lazy("tens"),
    "J": gettext_lazy("jacks"),
    "Q": gettext_lazy("queens"),
    "K": gettext_lazy("kings"),
    "A": gettext_lazy("aces"),
    "S": gettext_lazy("spades"),
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
}
#: one card's rank, named (a card's tooltip)
RANK_NAME = {
    "2": pgettext_lazy("card", "two"),
    "3": pgettext_lazy("card", "three"),
    "4": pgettext_lazy("card", "four"),
    "5": pgettext_lazy("card", "five"),
    "6": pgettext_lazy("card", "six"),
    "7": pgettext_lazy("card", "seven"),
    "8": pgettext_lazy("card", "eight"),
    "9": pgettext_lazy("card", "nine"),
    "T": pgettext_lazy("card", "ten"),
    "J": pgettext_lazy("card", "jack"),
    "Q": pgettext_lazy("card", "queen"),
    "K": pgettext_lazy("card", "king"),
    "A": pgettext_lazy("card", "ace"),
}
#: a card's name by its suit (the suit's case differs by language: "туз пик")
CARD_NAME = {
    "S": pgettext_lazy("card", "%(rank)s of spades"),
    "C": pgettext_lazy("card", "%(rank)s of clubs"),
    "D": pgettext_lazy("card", "%(rank)s of diamonds"),
    "H": pgettext_lazy("card", "%(rank)s of hearts"),
}
#: who made a move, when not the seat's own player (the log shows it beside the move)
MOVED_BY = {
    "bot": pgettext_lazy("who moved", "bot"),
    "stand-in": pgettext_lazy("who moved", "a bot for the away player"),
    "timeout": pgettext_lazy("who moved", "time ran out"),
}
#: the reader's language, whichever is active when a page or socket renders (a game's words are built with it)
READER = Translator(gettext, ngettext)


def card_title(code: str) -> str:
    """A card named in the reader's language ("queen of spades"), for a tooltip."""
    if code.startswith("X"):
        return gettext("joker")
    rank, suit = RANK_NAME.get(code[:1]), CARD_NAME.get(code[1:2])
    return str(suit) % {"rank": rank} if rank and suit else code


def action_label(game: str, action: dict[str, Any]) -> str:
    """A legal action's button label, as its game words it (``GameSpec.ui``), in the reader's language."""
    return get_game(game).ui.action_label(action, READER)


def action_hint(game: str, action: dict[str, Any]) -> str:
    """A short help beside a legal action's button, in the reader's language; "" when the game has none."""
    words = get_game(game).ui.hint(action)
    return gettext(words) if isinstance(words, str) else render(words, READER)


def said_text(said: Said | None, seat_name: Callable[[int], str] | None = None) -> str:
    """Words a game built (a move in the log) in the reader's language; a seat they name is called by
    ``seat_name`` (its player's name), else "seat N"."""
    return render(said, READER if seat_name is None else Translator(gettext, ngettext, seat_name))
