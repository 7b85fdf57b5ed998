"""games.fields: a state's fields are declared once; snapshots and copies follow."""

from __future__ import annotations

from typing import Annotated, Any

import pytest

from games import InvalidOptions, get_game
from games.fields import DERIVED, FieldsMeta


def test_each_kind_of_field_is_copied_as_deep_as_it_is_mutable() -> None:
    class Thing(metaclass=FieldsMeta):
        n: int
        name: str | None
        cards: list[str]
        hands: list[list[str]]
        seen: set[str]
        pairs: list[tuple[int, str]]
        extra: dict[str, Any] | None
        table: Annotated[dict[str, int], DERIVED]

    t = Thing()
    t.n, t.name, t.cards, t.hands, t.seen = 1, None, ["6S"], [["7S"], []], {"8S"}
    t.pairs, t.extra, t.table = [(0, "9S")], {"a": 1}, {"x": 1}
    c = Thing._copy_fields(t, Thing())  # type: ignore[attr-defined]
    c.cards.append("TS")
    c.hands[0].append("JS")
    c.seen.add("QS")
    c.pairs.append((1, "KS"))
    c.extra["b"] = 2
    assert (t.cards, t.hands, t.seen, t.pairs, t.extra) == (["6S"], [["7S"], []], {"8S"}, [(0, "9S")], {"a": 1})
    assert c.table is t.table  # derived: shared, never mutated
    assert set(Thing._FIELDS) == {"n", "name", "cards", "hands", "seen", "pairs", "extra"}  # type: ignore[attr-defined]
    assert Thing._FIELDS["seen"].dump({"b", "a"}) == ["a", "b"]  # type: ignore[attr-defined]
    assert Thing._FIELDS["pairs"].load([[0, "9S"]]) == [(0, "9S")]  # type: ignore[attr-defined]


def test_a_field_whose_copy_is_unclear_is_refused_when_the_class_is_built() -> None:
    with pytest.raises(TypeError, match="say how it is copied"):

        class Bad(metaclass=FieldsMeta):
            board: Any

    with pytest.raises(TypeError, match="say how it is copied"):

        class AlsoBad(metaclass=FieldsMeta):
            board: list[str] | dict[str, str]


def test_fields_are_slots_so_a_typo_cannot_add_state() -> None:
    state = get_game("durak").new(seed=1)
    with pytest.raises(AttributeError):
        state.atacker = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["durak", "biznes", "verish"])
def test_an_incomplete_snapshot_is_refused(name: str) -> None:
    game = get_game(name)
    data = game.new(seats=game.min_seats, seed=2).to_json()
    del data["hands"]
    with pytest.raises(InvalidOptions, match="hands"):
        game.from_json(data)
    with pytest.raises(InvalidOptions):
        game.from_json({**game.new(seats=game.min_seats, seed=2).to_json(), "game": "other"})
