"""Short button labels for legal actions ("Beat 6♥ with 9♥"); the move log uses the engines' describe()."""

from __future__ import annotations

from typing import Any

SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANK_TEXT = {"T": "10"}
ROLE_TEXT = {"banker": "Banker", "thief": "Thief", "policeman": "Policeman", "mafia": "Mafia"}
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


def card_text(code: str) -> str:
    if code.startswith("X"):
        return "🃏"
    return RANK_TEXT.get(code[0], code[0]) + SUIT_SYMBOL.get(code[1], code[1])


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def action_label(game: str, action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "cover":
        return f"Beat {card_text(action['attack'])} with {card_text(action['card'])}"
    if kind == "transfer":
        return f"Transfer with {card_text(action['card'])}"
    if kind == "show":
        return f"Show {card_text(action['card'])} to transfer"
    if kind == "take":
        return "Take the cards"
    if kind == "done":
        return "Done" if game == "durak" else "Pass"
    if kind in ("attack", "throw", "claim", "add", "discard"):
        cards = action.get("cards")
        verb = {"attack": "Attack", "throw": "Throw in", "claim": "Claim", "add": "Add", "discard": "Discard"}[kind]
        return f"{verb} {cards_text(cards)}" if cards else f"{verb} the selected cards"
    if kind == "bid":
        return f"{action['tricks']} {SUIT_SYMBOL[action['suit']]}"
    if kind == "pass":
        return "Pass"
    if kind == "declare":
        return "With a banker" if action.get("banker") else "Alone"
    if kind == "role":
        return ROLE_TEXT.get(action.get("role"), str(action.get("role")))
    if kind == "change":
        return "Change trump"
    if kind == "trump":
        return f"Trump {SUIT_SYMBOL[action['suit']]}"
    if kind == "play":
        joker = f" as {card_text(action['as'])}" if action.get("as") else ""
        return f"Play {card_text(action['card'])}{joker}"
    if kind == "believe":
        return "I believe"
    if kind == "doubt":
        return "I don't believe"
    return kind or "?"
