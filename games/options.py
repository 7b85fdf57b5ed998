"""Declared game options: one schema drives validation, the lobby's form and tests.

Each game lists its options as ``Option`` values; ``validate`` turns whatever a
caller passed into a complete, typed dict or raises ``InvalidOptions`` naming
the offending option. Cross-option rules (Biznes: 36 cards only with 4 or 5
seats) stay in the game, which calls ``validate`` first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.errors import InvalidOptions


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    default: Any
    #: allowed values; for ``int`` options with ``low``/``high`` leave empty
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    #: ``bool``, ``int``, ``str`` or ``seat`` (an int seat or None)
    kind: str = "str"
    help: str = ""
    #: human labels for choices, same order as ``choices``
    choice_labels: tuple[str, ...] = field(default=())

    def check(self, value: Any, seats: int) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"{self.name}: must be true or false, not {value!r}")
            return value
        if self.kind == "seat":
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
                raise InvalidOptions(f"{self.name}: must be null or a seat 0..{seats - 1}, not {value!r}")
            return value
        if self.kind == "int":
            # "36" from a form or JSON string is accepted; 36.5 or True is not
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"{self.name}: must be a whole number, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"{self.name}: must be one of {allowed}, not {value!r}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise InvalidOptions(f"{self.name}: must be from {self.low} to {self.high}, not {value!r}")
        return value

    def describe(self) -> dict[str, Any]:
        """JSON-ready description for the lobby's form."""
        return {
            "name": self.name,
            "label": self.label,
            "default": self.default,
            "kind": self.kind,
            "choices": list(self.choices),
            "choice_labels": list(self.choice_labels or map(str, self.choices)),
            "low": self.low,
            "high": self.high,
            "help": self.help,
        }


#: (id of a schema, seats) -> (the schema, its checked defaults); the schema is kept so its id stays its own
_DEFAULTS: dict[tuple[int, int], tuple[Sequence[Option], dict[str, Any]]] = {}


def validate(schema: Sequence[Option], given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    """Complete ``given`` with defaults and check every value; unknown names are errors."""
    if not given and isinstance(given, (Mapping, type(None))):
        # every default, as often as a bot or a benchmark deals a game: checked once per schema and seat count
        key = (id(schema), seats)
        cached = _DEFAULTS.get(key)
        if cached is None or cached[0] is not schema:
            cached = _DEFAULTS[key] = (schema, {o.name: o.check(o.default, seats) for o in schema})
        return dict(cached[1])
    if not isinstance(given, Mapping):
        raise InvalidOptions(f"options: must be an object, not {given!r}")
    known = {o.name for o in schema}
    unknown = sorted(set(given) - known)
    if unknown:
        raise InvalidOptions(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(known))})")
    return {o.name: o.check(given.get(o.name, o.default), seats) for o in schema}


def check_seats(seats: object, low: int, high: int) -> int:
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise InvalidOptions(f"seats: must be from {low} to {high}, not {seats!r}")
    return seats


def check_dealer(dealer: object, seats: int) -> int:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise InvalidOptions(f"dealer: must be a seat 0..{seats - 1}, not {dealer!r}")
    return dealer
