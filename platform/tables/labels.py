"""Short button labels for legal actions ("Beat 6♥ with 9♥") from each game's UI metadata.

The move log uses the engines' describe(); the card words are the games' own.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext_lazy

from games import get_game
from games.ui import RANK_TEXT, SUIT_SYMBOL, card_text, cards_text

__all__ = ["KIND_TEXT", "RANK_TEXT", "SUIT_SYMBOL", "TEAM_LABELS", "action_label", "card_text", "cards_text"]
#: teams are told apart by colour (``team-0``, ``team-1`` in the CSS) and named by it
TEAM_LABELS = (pgettext_lazy("team", "Blue team"), pgettext_lazy("team", "Orange team"))
KIND_TEXT = {
    "2": "twos",
    "3": "threes",
    "4": "fours",
    "5": "fives",
    "6": "sixes",
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "T": "tens",
    "J": "jacks",
    "Q": "queens",
    "K": "kings",
    "A": "aces",
    "S": "spades",
    "C": "clubs",
    "D": "diamonds",
    "H": "hearts",
}


def action_label(game: str, action: dict[str, Any]) -> str:
    """A legal action's button label, as its game words it (``Game.ui``)."""
    return get_game(game).ui.action_label(action)
