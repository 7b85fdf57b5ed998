"""Full JSON snapshots of a Biznes deal (``to_json``/``from_json``), no replay needed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.biznes.rules import hand_size, widow_size
from games.errors import InvalidOptions

if TYPE_CHECKING:
    from games.biznes.state import BiznesState

#: plain fields copied as they are (lists are copied one level deep)
FIELDS = (
    "options",
    "seats",
    "dealer",
    "deck",
    "phase",
    "turn",
    "widow",
    "widow_shown",
    "discard",
    "passed",
    "has_bid",
    "level",
    "level_suits",
    "declarer",
    "banker",
    "asked_banker",
    "roles",
    "contract",
    "contract_suit",
    "trump",
    "change_used",
    "leader",
    "last_winner",
    "tricks",
    "counted",
    "tricks_played",
    "played",
    "caught",
    "void",
    "scores",
)


def dump(state: BiznesState) -> dict[str, Any]:
    out: dict[str, Any] = {"game": "biznes"}
    for key in FIELDS:
        value = getattr(state, key)
        out[key] = _plain(value)
    out["hands"] = [list(h) for h in state.hands]
    out["bids"] = [list(b) for b in state.bids]
    out["trick"] = [list(t) for t in state.trick]
    out["last_trick"] = [list(t) for t in state.last_trick]
    return out


def load(cls: type[BiznesState], data: Mapping[str, Any]) -> BiznesState:
    try:
        state = object.__new__(cls)
        for key in FIELDS:
            setattr(state, key, _plain(data[key]))
        state.hands = [list(h) for h in data["hands"]]
        state.bids = [(b[0], b[1], b[2]) for b in data["bids"]]
        state.trick = [(t[0], t[1], t[2]) for t in data["trick"]]
        state.last_trick = [(t[0], t[1], t[2]) for t in data["last_trick"]]
        size = state.options["deck"]
        state.n_tricks = hand_size(size, state.seats)
        state.widow_n = widow_size(size, state.seats)
    except (KeyError, TypeError, IndexError) as e:
        raise InvalidOptions(f"not a saved biznes state: {e}") from e
    return state


def _plain(value: Any) -> Any:
    """A one-level copy of a list or dict, so a snapshot never shares mutable parts."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value
