"""The deck commitment: shown while a game is played, checkable against the deck after it."""

import hashlib


def deck_commitment(deck: list[str], salt: str) -> str:
    """sha256 over ``salt:card,card,...`` (the order top first)."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()
