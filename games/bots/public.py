"""The public move log a bot may read: what every seat at the table saw.

A bot gets ``history``, a list of ``(seat, public_action)`` pairs in the
order the moves were made. A public action is the JSON action with every
hidden part removed:

- Durak: every action is public (cards are played face up), kept as is.
- Biznes: the declarer's ``discard`` is secret (B2): ``{"type": "discard",
  "count": n}``. Everything else (bids, roles, the change, plays and what a
  joker became) is public.
- Believe It or Not: the cards of a ``claim``/``add`` are face down (V2, V3):
  ``{"type": "claim", "count": n, "kind": "K"}`` and ``{"type": "add",
  "count": n}``. A ``believe``/``doubt`` turns the latest placement up for
  everyone (V4), so ``public_record`` may attach that public check
  (``"check"``: the turned cards, who claimed, whether it was true, who took
  the pile) read from the *spectator* view after the move.

``public_action`` is the only place that decides what is hidden; the arena and
the platform build a bot's history with ``public_record``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Action = dict[str, Any]
History = list[tuple[int, Action]]


def public_action(game_name: str, action: Mapping[str, Any]) -> Action:
    """``action`` with its hidden parts replaced by a count (see the module docstring)."""
    kind = action.get("type")
    if game_name == "biznes" and kind == "discard":
        return {"type": "discard", "count": len(action.get("cards") or [])}
    if game_name == "verish" and kind in ("claim", "add"):
        out: Action = {"type": kind, "count": len(action.get("cards") or [])}
        if kind == "claim":
            out["kind"] = action.get("kind")
        return out
    if game_name not in ("durak", "biznes", "verish"):
        raise KeyError(f"unknown game {game_name!r}")
    return _copy(action)


def public_record(game_name: str, action: Mapping[str, Any], spectator_view_after: Mapping[str, Any] | None) -> Action:
    """The history entry of one move: ``public_action`` plus, for a Believe It or Not
    check, the check every seat saw (from ``state.view(None)`` after the move)."""
    out = public_action(game_name, action)
    if game_name == "verish" and out.get("type") in ("believe", "doubt") and spectator_view_after:
        check = spectator_view_after.get("last_check")
        if check is not None:
            out["check"] = {
                "claimant": check["claimant"],
                "cards": list(check["cards"]),
                "kind": check["kind"],
                "true": check["true"],
                "taker": check["taker"],
            }
    return out


def public_history(
    game_name: str,
    options: Mapping[str, Any] | None,
    seats: int,
    dealer: int,
    deck: Sequence[str],
    moves: Iterable[tuple[int, Mapping[str, Any]]],
) -> History:
    """A game's public log rebuilt from its full move log (the server side has the deck)."""
    from games import get_game

    state = get_game(game_name).new(options=options, seats=seats, dealer=dealer, deck=deck)
    out: History = []
    for seat, action in moves:
        state.apply(seat, dict(action))
        out.append((seat, public_record(game_name, action, state.view(None))))
    return out


def _copy(action: Mapping[str, Any]) -> Action:
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
