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

Each game's registry entry decides what is hidden (``GameSpec.public_action``, in
``games.<game>.meta``); these functions are the bots' entry points by name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Action = dict[str, Any]
History = list[tuple[int, Action]]


def public_action(game_name: str, action: Mapping[str, Any]) -> Action:
    """``action`` with its hidden parts replaced by a count: ``GameSpec.public_action``."""
    from games import get_game

    return get_game(game_name).public_action(action)


def public_record(game_name: str, action: Mapping[str, Any], spectator_view_after: Mapping[str, Any] | None) -> Action:
    """The history entry of one move: ``GameSpec.public_record`` (a Believe It or Not check stays public)."""
    from games import get_game

    return get_game(game_name).public_record(action, spectator_view_after)


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

    game = get_game(game_name)
    state = game.new(options=options, seats=seats, dealer=dealer, deck=deck)
    out: History = []
    for seat, action in moves:
        state.apply(seat, dict(action))
        out.append((seat, game.public_record(action, state.view(None))))
    return out


def check_inputs(view: object, legal_actions: Sequence[Action]) -> list[Action]:
    """A bot takes a view dict, never a State; returns the legal actions in a canonical order.

    The order an engine lists its actions in may follow its internal (hidden)
    card order, so every bot first sorts them by their content.
    """
    if not isinstance(view, dict) or "seat" not in view:
        raise TypeError("a bot takes the seat's view dict (state.view(seat)), not a state")
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    return sorted((dict(a) for a in legal_actions), key=_canonical)


def _canonical(action: Action) -> str:
    return json.dumps({k: sorted(v) if isinstance(v, list) else v for k, v in action.items()}, sort_keys=True)
