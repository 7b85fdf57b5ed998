"""A seat's row of the seats' fragment made in Python, as ``tables/_seat_row.html`` draws it.

A move's process draws a row whenever it shows something no row of its lineage showed yet (a turn, a badge, a card
count's slot: ``tables.live.Snapshot._seat_rows``), and the template engine's work per tag and lookup was nearly all
of a row's cost (the most expensive part of a move's public fragments once the board was made in Python). This
gives what the template gives for the rows every game shows (its constant words translated and escaped as
``{% translate %}`` does, each value escaped as ``{{ }}`` draws it); a row the template draws otherwise (a role or
a trick count, a count that is a number rather than the slot, a value of an unexpected kind) is left to it.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils.html import conditional_escape
from django.utils.translation import gettext


@functools.lru_cache(maxsize=16)
def _words(language: str | None) -> tuple[str, str, str, str, str]:
    """The row's constant words in ``language`` (the active one: the key), escaped as ``{% translate %}`` leaves
    them: to play, cards in hand, deals this game, dealer, out."""
    words = ("to play", "cards in hand", "deals this game", "dealer", "out")
    return tuple(str(conditional_escape(gettext(w))) for w in words)  # type: ignore[return-value]


def row_html(game: Any, view: dict[str, Any], p: dict[str, Any], language: str | None) -> str | None:
    """Seat ``p``'s row as the template draws it from a context holding ``game`` and the row's ``view`` (dealer,
    roles, tricks, finished), its card count being ``None`` or a slot marked safe for which ``backs`` draws nothing
    (the caller's to know); None when the row shows what only the template draws (a role, tricks) or holds a value
    of another kind."""
    index, team, top, standing = p.get("index"), p.get("team"), p.get("top"), p.get("standing")
    cards = p.get("cards")
    badges = p.get("badges")
    if (
        type(index) is not int
        or (team is not None and type(team) is not int)
        or not (isinstance(top, str) and isinstance(standing, str))
        or (cards is not None and not hasattr(cards, "__html__"))
        or view.get("roles")
        or view.get("tricks")
        or type(badges) is not list
        or not all(type(b) is tuple and len(b) == 2 and isinstance(b[0], str) and isinstance(b[1], str) for b in badges)
    ):
        return None
    to_play, in_hand, deals, dealer, out = _words(language)
    turn = bool(p.get("turn"))
    classes = (
        (" turn" if turn else "")
        + (" is-away" if p.get("away") else "")
        + (f" team-{team}" if team is not None else "")
    )
    current = ' aria-current="true"' if turn else ""
    turn_badge = f'<span class="badge turn-badge">{to_play}</span>' if turn else ""
    count = f'<span class="count" title="{in_hand}">{cards}</span>' if cards is not None else ""
    head = (
        f'\n    <li class="seat{classes}" data-seat="{index}"{current}>\n      {conditional_escape(top)}\n'
        f'      <span class="seat-info">\n        {turn_badge}\n        {count}\n'
        f"        {conditional_escape(standing)}\n        "
    )
    if not game:
        return f"{head}\n      </span>\n    </li>\n  "
    finished = view.get("finished") or ()
    try:
        is_out = index in finished
    except Exception:  # as the template's ``in`` reads a failed test
        is_out = False
    deals_badge = f'<span class="badge" title="{deals}">{dealer}</span>' if view.get("dealer") == index else ""
    shown = "".join(
        f'<span class="badge {conditional_escape(style)}">{conditional_escape(word)}</span>' for style, word in badges
    )
    out_badge = f'<span class="badge out">{out}</span>' if is_out else ""
    return (
        f"{head}\n          {deals_badge}\n          {shown}\n          {out_badge}"
        "\n          \n          \n        \n      </span>\n    </li>\n  "
    )
