"""The engine contract (``../shared/rules/README.md``) as two base classes.

``Game`` is the registry entry: it builds states (``new``), restores them
(``from_json``), replays a move log (``replay``) and describes its options for
the lobby. ``State`` is the one mutable object a game mutates through
``apply``; everything a seat may know comes out of ``view``.

Beyond the contract every state also offers what the platform and the tests
need: ``zones`` (every card exactly once, hidden places included, for the
conservation property), ``to_json``/``from_json`` (a full snapshot, so a cached
game resumes without replaying), ``default_action`` (the rules' turn-timeout
move), ``describe`` (an action in words, using public information only),
``next_game`` (who deals the next game of a match) and ``copy``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from games.errors import IllegalAction, InvalidOptions
from games.options import Option

Action = dict[str, Any]


class State(ABC):
    #: the registry name, ``"durak"``; set by each game's state class
    game_name: ClassVar[str]

    options: dict[str, Any]
    seats: int
    dealer: int
    #: the deck order given to (or shuffled by) ``new``, top first: ``new(deck=state.deck)`` replays the game
    deck: list[str]

    # -- the contract -------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(
        cls,
        options: Mapping[str, Any] | None = None,
        seats: int = 2,
        dealer: int = 0,
        deck: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> State: ...

    @abstractmethod
    def to_act(self) -> list[int]: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any] | None: ...

    # -- platform extras ----------------------------------------------------
    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card of the deck exactly once, keyed by where it lies."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The rules' turn-timeout move for a seat in ``to_act()``."""

    @abstractmethod
    def describe(self, seat: int, action: Action) -> str:
        """An action in words without the actor's name ("covers 6H with 9H").

        Call it *before* ``apply``; it may only use what every seat can see.
        """

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A complete JSON-ready snapshot; ``from_json`` restores it exactly."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> State: ...

    @abstractmethod
    def next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        """For a match: the next game's dealer and options, once this one is over.

        Durak takes ``fool_rule="under"|"from"`` (D11); Biznes keeps the dealer
        after a void deal (B10); Believe It or Not: the loser deals (V1).
        """

    def copy(self) -> State:
        return type(self).from_json(self.to_json())

    def check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction(f"seat: must be 0..{self.seats - 1}, not {seat!r}")
        return seat


def check_action(action: object) -> str:
    """The ``type`` of a well-formed action dict, or ``IllegalAction``."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an action must be an object with a 'type', not {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("an action needs a 'type' string")
    return kind


class Game:
    """A registry entry: ``games.get_game("durak")``."""

    def __init__(
        self,
        name: str,
        title: str,
        state_class: type[State],
        options: Sequence[Option],
        seats: tuple[int, int],
        summary: str = "",
    ) -> None:
        self.name = name
        self.title = title
        self.state_class = state_class
        self.options = tuple(options)
        self.min_seats, self.max_seats = seats
        self.summary = summary

    def new(
        self,
        options: Mapping[str, Any] | None = None,
        seats: int = 2,
        dealer: int = 0,
        deck: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> State:
        return self.state_class.new(options=options, seats=seats, dealer=dealer, deck=deck, seed=seed)

    def from_json(self, data: Mapping[str, Any]) -> State:
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise InvalidOptions(f"not a saved {self.name} state")
        return self.state_class.from_json(data)

    def replay(
        self,
        options: Mapping[str, Any] | None,
        seats: int,
        dealer: int,
        deck: Sequence[str],
        moves: Iterable[tuple[int, Action]],
    ) -> State:
        """Rebuild a game from its setup and move log; an illegal move raises."""
        state = self.new(options=options, seats=seats, dealer=dealer, deck=deck)
        for seat, action in moves:
            state.apply(seat, action)
        return state

    def option_schema(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.options]

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
