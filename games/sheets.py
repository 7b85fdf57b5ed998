"""A match's score sheet: what each finished game adds, when the match ends, what it shows.

A game's registry entry makes its sheet (``GameSpec.new_sheet`` / ``GameSpec.load_sheet``);
the platform stores ``to_json()`` and never looks inside. ``CountingSheet``
counts who lost each game (the fool, the loser) over a fixed number of games;
Biznes keeps cumulative points in exact halves (``games.biznes.sheet``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from games.errors import InvalidOptions
from games.outcome import Outcome, Placing


class Finished(Protocol):
    """What a sheet reads of a finished game: any game's state (``games.base.State``, which imports this
    module, so a sheet names only what it reads)."""

    @property
    def seats(self) -> int: ...

    @property
    def options(self) -> dict[str, Any]: ...

    def result(self) -> dict[str, Any] | None: ...


class Sheet(ABC):
    #: games (or scored deals) the match lasts
    length: int

    @abstractmethod
    def record(self, state: Finished) -> None:
        """Add the finished game ``state``."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @abstractmethod
    def rows(self) -> dict[str, Any]:
        """What a page shows: ``kind`` ("points" or "count"), ``rows``, ``totals``, ``length`` and words."""

    @abstractmethod
    def standings(self) -> dict[int, Placing]:
        """Each seat's standing in the match so far (final once ``is_over``)."""

    @abstractmethod
    def rated_outcome(
        self, result: Mapping[str, Any], seats: int, options: Mapping[str, Any], number: int
    ) -> Outcome | None:
        """What ratings rate for the recorded game ``number`` (1-based) with ``result``; None: nothing."""


class CountingSheet(Sheet):
    """Each game's loser is counted; the match is a fixed number of games (Durak D11, Believe It or Not V6)."""

    def __init__(
        self,
        placings: Callable[[Mapping[str, Any], int, Mapping[str, Any]], Outcome],
        seats: int,
        length: int,
        loss_word: str,
        losses_word: str,
        games: list[dict[str, Any]] | None = None,
        counts: list[int] | None = None,
    ) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise InvalidOptions(f"length: a number of games from 1, not {length!r}")
        self.placings, self.seats, self.length = placings, seats, length
        self.loss_word, self.losses_word = loss_word, losses_word
        self.games = list(games or [])
        self.counts = list(counts or [0] * seats)

    def _outcome(self, state: Finished) -> Outcome:
        return self.placings(state.result() or {}, state.seats, state.options)

    def record(self, state: Finished) -> None:
        out = self._outcome(state)
        # in teams the whole losing team lost the game, its fool (if one seat still held cards) or not
        if out.losing_team is not None and out.losing_team < len(out.teams):
            losers = list(out.teams[out.losing_team])
        else:
            losers = [] if out.loser is None else [out.loser]
        self.games.append({"loser": out.loser, "draw": out.draw, "losing_team": out.losing_team, "losers": losers})
        for seat in losers:
            self.counts[seat] += 1

    def is_over(self) -> bool:
        return len(self.games) >= self.length

    def to_json(self) -> dict[str, Any]:
        return {"length": self.length, "games": [dict(g) for g in self.games], "counts": list(self.counts)}

    def rows(self) -> dict[str, Any]:
        return {
            "kind": "count",
            # sheets saved before "losers" was kept name the single loser only
            "rows": [
                {**g, "losers": g.get("losers", [] if g.get("loser") is None else [g["loser"]])} for g in self.games
            ],
            "totals": list(self.counts),
            "length": self.length,
            "loss_word": self.loss_word,
            "losses_word": self.losses_word,
        }

    def standings(self) -> dict[int, Placing]:
        counts = self.counts
        return {
            s: Placing(
                1 + sum(1 for c in counts if c < counts[s]),
                won=self.is_over() and counts[s] == min(counts),
                lost=counts[s] > 0,
            )
            for s in range(self.seats)
        }

    def rated_outcome(
        self, result: Mapping[str, Any], seats: int, options: Mapping[str, Any], number: int
    ) -> Outcome | None:
        return self.placings(result, seats, options)


def load_counting(data: Mapping[str, Any], **words: Any) -> CountingSheet:
    try:
        return CountingSheet(
            seats=len(data["counts"]), length=data["length"], games=data["games"], counts=data["counts"], **words
        )
    except (KeyError, TypeError) as e:
        raise InvalidOptions(f"not a saved score sheet: {e}") from e
