"""A match's score sheet: started with the match, updated inside each finishing move, shown on the table page.

The sheet itself is the game's own object (``GameSpec.new_sheet``, a counting sheet
or Biznes' cumulative points in exact halves); the match row stores its JSON.
The final standings kept per seat after the match are the scoring app's.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext_lazy, pgettext_lazy

from games import get_game
from games.base import State
from games.sheets import Sheet
from tables.models import Match, Table


def sheet_start(table: Table, dealer: int) -> dict:
    """The JSON of an empty sheet for a new match at ``table``."""
    return get_game(table.game).new_sheet(table.seats_count, table.options, table.match_length, dealer).to_json()


def sheet_record_game(table: Table, match: Match, state: State) -> Sheet:
    """Add the finished game ``state`` to ``match``'s sheet (the caller saves the match); returns the sheet."""
    sheet = get_game(table.game).load_sheet(match.sheet)
    sheet.record(state)
    match.sheet = sheet.to_json()
    return sheet


def match_sheet(match: Match) -> Sheet:
    return get_game(match.table.game).load_sheet(match.sheet)


def sheet_view(game_name: str, sheet_json: dict[str, Any]) -> dict[str, Any]:
    """What the table page shows of a match: per-game rows, per-seat totals and the match unit's words."""
    game = get_game(game_name)
    # the game's words are English; they are translated here, at the platform's edge
    rows = game.load_sheet(sheet_json).rows()
    # (a word shown alone has the context "game word"; the unit is a counted pair: see core's makemessages).
    # Lazy: one copy per move is shared by every socket of the table, each rendering in its reader's language.
    words = {key: pgettext_lazy("game word", rows[key]) for key in ("loss_word", "losses_word") if rows.get(key)}
    units = ngettext_lazy(*game.unit, rows.get("length") or 5)
    return {**rows, **words, "unit": ngettext_lazy(*game.unit, 1), "units": units}
