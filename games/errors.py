"""Errors raised by the rules engines.

Both subclass ``ValueError`` (as python-chess does), so a caller that only
cares about "bad input" can catch one type.
"""

from games.words import Said, render


class IllegalAction(ValueError):
    """An action that is not legal now: wrong seat, wrong phase, bad shape.

    The state is left exactly as it was when this is raised. Its message is
    English text, or a ``games.words.Said`` for a refusal a player can meet
    through the table's controls: ``str()`` is then its English, and ``said``
    lets the platform tell the player in his own language.
    """

    def __init__(self, message: str | Said = "") -> None:
        self.said: Said | None = None if isinstance(message, str) else message
        super().__init__(message if isinstance(message, str) else render(message))


class InvalidOptions(ValueError):
    """Options, seats, dealer or deck that the game cannot be set up with."""
