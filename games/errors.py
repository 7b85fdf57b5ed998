"""Errors raised by the rules engines.

Both subclass ``ValueError`` (as python-chess does), so a caller that only
cares about "bad input" can catch one type.
"""


class IllegalAction(ValueError):
    """An action that is not legal now: wrong seat, wrong phase, bad shape.

    The state is left exactly as it was when this is raised.
    """


class InvalidOptions(ValueError):
    """Options, seats, dealer or deck that the game cannot be set up with."""
