"""B8 scoring: the premium table and every branch, in exact half points."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.biznes.rules import premium
from games.biznes.scoring import score_deal, to_halves, to_number


def numbers(halves: list[int]) -> list[int | float]:
    return [to_number(h) for h in halves]


# (deck, seats) -> (with banker, alone), straight from the rules' table
PREMIUM_TABLE = [
    (36, 4, 2, 3),
    (36, 5, 0, 1),
    (52, 4, 3, 4),
    (52, 5, 2, 3),
    (52, 6, 1, 2),
    (54, 4, 3, 4),
    (54, 5, 2, 3),
    (54, 6, 1, 2),
]


@pytest.mark.parametrize(("deck", "seats", "banker", "alone"), PREMIUM_TABLE)
def test_premium_table(deck: int, seats: int, banker: int, alone: int) -> None:
    assert premium(deck, seats, True) == banker
    assert premium(deck, seats, False) == alone


@pytest.mark.parametrize(("deck", "seats", "banker", "alone"), PREMIUM_TABLE)
def test_premium_as_scored_with_and_without_a_banker(deck: int, seats: int, banker: int, alone: int) -> None:
    """Contract 1 made with exactly 1 trick scores 1 + P; the banker's presence decides P."""
    others = ["thief"] * (seats - 2)
    tricks = [1] + [0] * (seats - 1)
    with_banker = score_deal(deck, ["declarer", "banker", *others], tricks, contract=1, counted=1)
    assert numbers(with_banker)[:2] == [1 + banker, 1 + banker]
    alone_scores = score_deal(deck, ["declarer", "thief", *others], tricks, contract=1, counted=1)
    assert numbers(alone_scores)[0] == 1 + alone


# (id, deck, roles, tricks, contract, counted, caught, expected scores)
CASES = [
    (
        "seed example: policeman -1.5",
        36,
        ["declarer", "thief", "mafia", "mafia", "policeman"],
        [2, 2, 1, 2, 0],
        3,
        2,
        False,
        [-2, 2, 3, 3, -1.5],
    ),
    (
        "seed example, mafia at zero: policeman +1.5",
        36,
        ["declarer", "thief", "mafia", "mafia", "policeman"],
        [3, 2, 0, 2, 0],
        3,
        3,
        False,
        [4, 2, 0, 0, 1.5],
    ),
    (
        "made with overtricks, banker scores the same",
        52,
        ["declarer", "banker", "thief", "policeman"],
        [6, 3, 2, 2],
        4,
        6,
        False,
        [9, 9, 2, 13 - 4 - 1.5 - 2],
    ),
    (
        "failed: -((C - T) + P) each for declarer and banker",
        52,
        ["declarer", "thief", "banker", "thief", "thief"],
        [1, 3, 2, 2, 2],
        4,
        1,
        False,
        [-5, 3, -5, 2, 2],
    ),
    (
        "caught: -(C + P) for the declarer side, 0 for all others",
        36,
        ["declarer", "banker", "thief", "policeman"],
        [2, 1, 0, 0],
        3,
        2,
        True,
        [-5, -5, 0, 0],
    ),
    (
        "caught alone",
        54,
        ["thief", "declarer", "mafia", "mafia", "policeman", "thief"],
        [1, 1, 1, 1, 0, 0],
        2,
        1,
        True,
        [0, -4, 0, 0, 0, 0],
    ),
    (
        "mafia of three each score the sum",
        52,
        ["declarer", "mafia", "mafia", "mafia", "policeman", "thief"],
        [3, 1, 1, 1, 1, 1],
        3,
        3,
        False,
        [5, 3, 3, 3, 8 - 3 - 1 - 1 - 3, 1],
    ),
    (
        "lone mafioso scores as a thief",
        36,
        ["declarer", "mafia", "policeman", "thief"],
        [5, 2, 1, 1],
        5,
        5,
        False,
        [8, 2, 9 - 5 - 1.5 - 3, 1],
    ),
    (
        "policeman's own tricks do not count; banker's tricks do not count for the contract",
        36,
        ["declarer", "banker", "policeman", "thief"],
        [2, 3, 4, 0],
        3,
        2,
        False,
        [-3, -3, 9 - 3 - 1, 0],
    ),
    (
        "premium 0 (36 cards, 5 players, banker): failed by one costs exactly one",
        36,
        ["declarer", "banker", "thief", "thief", "policeman"],
        [2, 0, 2, 2, 1],
        3,
        2,
        False,
        [-1, -1, 2, 2, 7 - 3 - 0 - 4],
    ),
    (
        "contract dropped to 0: always made",
        36,
        ["declarer", "thief", "thief", "policeman"],
        [0, 5, 4, 0],
        0,
        0,
        False,
        [3, 5, 4, 9 - 0 - 1.5 - 9],
    ),
]


@pytest.mark.parametrize(
    ("deck", "roles", "tricks", "contract", "counted", "caught", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_scoring_branches(
    deck: int, roles: list, tricks: list, contract: int, counted: int, caught: bool, expected: list
) -> None:
    got = numbers(score_deal(deck, roles, tricks, contract=contract, counted=counted, caught=caught))
    assert got == expected
    for g in got:  # an int when whole, else an exact .5 float
        assert isinstance(g, int) or (isinstance(g, float) and (g * 2).is_integer() and not g.is_integer())


def test_halves_round_trip_exactly() -> None:
    for h in range(-41, 42):
        n = to_number(h)
        assert Fraction(n) == Fraction(h, 2)
        assert to_halves(n) == h
    with pytest.raises(ValueError):
        to_halves(0.25)


def test_impossible_roles_are_refused() -> None:
    with pytest.raises(ValueError):
        score_deal(36, ["thief", "thief", "thief", "thief"], [3, 3, 2, 1], contract=1, counted=0)
    with pytest.raises(ValueError):
        score_deal(36, ["declarer", "policeman", "policeman", "thief"], [3, 3, 2, 1], contract=1, counted=3)
