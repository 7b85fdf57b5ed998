"""B8 scoring of one finished deal, as a pure function, in exact half points.

Scores are kept as integers of *halves* (``3`` means 1.5) so that the
policeman's ``P/2`` never drifts; ``to_number`` turns halves into what JSON
shows: an ``int`` when whole, else a float ending in ``.5`` (exact in binary).

>>> # the seed's worked example: 5 players, 36 cards, contract 3, alone
>>> roles = ["declarer", "thief", "mafia", "mafia", "policeman"]
>>> [to_number(h) for h in score_deal(36, roles, [2, 2, 1, 2, 0], contract=3, counted=2)]
[-2, 2, 3, 3, -1.5]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.biznes.rules import premium


def to_number(halves: int) -> int | float:
    """Halves -> a JSON number: ``4 -> 2``, ``-3 -> -1.5``."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def to_halves(number: float) -> int:
    """A JSON score back to halves; refuses anything but whole or half points."""
    halves = number * 2
    if halves != int(halves):
        raise ValueError(f"not a whole or half point: {number!r}")
    return int(halves)


def settle_roles(roles: Sequence[str | None]) -> list[str | None]:
    """B4: a lone mafioso is a thief."""
    out = list(roles)
    mafia = [s for s, r in enumerate(out) if r == "mafia"]
    if len(mafia) == 1:
        out[mafia[0]] = "thief"
    return out


def score_deal(
    deck: int,
    roles: Sequence[str | None],
    tricks: Sequence[int],
    contract: int,
    counted: int,
    caught: bool = False,
) -> list[int]:
    """B8: every seat's score for one deal, in halves.

    ``roles`` are the final roles (after any B6 swap); the deal played "with
    banker" exactly when some seat is ``"banker"`` (a declarer who asked for
    one and got none scores as alone). ``contract`` is the final contract C
    (after the B4 drop), ``counted`` the tricks T taken by whoever was
    declarer at the time (B6), ``tricks`` each seat's own tricks. ``caught``
    is B7: declarer and banker lose ``C + P``, everyone else scores 0.
    """
    seats = len(roles)
    roles = settle_roles(roles)
    if len(tricks) != seats:
        raise ValueError("one trick count per seat")
    if roles.count("declarer") != 1 or roles.count("banker") > 1 or roles.count("policeman") > 1:
        raise ValueError(f"impossible roles {roles}")
    n = deck // seats  # N: tricks in the deal
    p = premium(deck, seats, "banker" in roles)
    out = [0] * seats
    if caught:
        # B8 caught: -(C + P) for the declarer side, 0 for the rest
        for s, r in enumerate(roles):
            if r in ("declarer", "banker"):
                out[s] = -2 * (contract + p)
        return out
    # declarer and banker score the same: T + P made, -((C - T) + P) failed
    side = 2 * (counted + p) if counted >= contract else -2 * ((contract - counted) + p)
    mafiosi = [s for s, r in enumerate(roles) if r == "mafia"]
    mafia_total = sum(tricks[s] for s in mafiosi)
    # mafia scores only when every mafioso took at least one trick, else "at zero"
    mafia_scores = bool(mafiosi) and all(tricks[s] > 0 for s in mafiosi)
    thieves_total = sum(tricks[s] for s, r in enumerate(roles) if r == "thief")
    for s, r in enumerate(roles):
        if r in ("declarer", "banker"):
            out[s] = side
        elif r == "thief":
            out[s] = 2 * tricks[s]
        elif r == "mafia":
            out[s] = 2 * mafia_total if mafia_scores else 0
        elif r == "policeman":
            # base N - C - P/2, minus thieves, minus the mafia unless at zero; own tricks ignored
            out[s] = 2 * (n - contract) - p - 2 * thieves_total - (2 * mafia_total if mafia_scores else 0)
    return out
