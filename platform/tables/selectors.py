"""Reads for live tables: whose seat, which game, and each seat's own view."""

from __future__ import annotations

import copy
import re
import secrets
import threading
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from django.utils.translation import gettext

from games import get_game
from games.base import State
from scoring.selectors import sheet_view
from tables.fairness import deck_commitment
from tables.models import Game, Match, Move, Seat, Table

GENERIC_BOARD = "tables/boards/generic.html"


def game_ui(game_name: str) -> dict[str, Any]:
    """What the table page and the replay draw from the game's own UI metadata (never from its name)."""
    game = get_game(game_name)
    return {
        "title": game.title,
        "board": game.ui.board or GENERIC_BOARD,
        "seat_badges": dict(game.ui.seat_badges),
        "unit": gettext(game.unit[0]),
        "units": gettext(game.unit[1]),
    }


def seat_index_of(table: Table | int, user) -> int | None:
    """The user's seat at a table (a Table or its id), or None for a spectator."""
    if user is None or not user.is_authenticated:
        return None
    table_id = table if isinstance(table, int) else table.pk
    return Seat.objects.filter(table_id=table_id, user=user).values_list("index", flat=True).first()


def current_game(table: Table) -> Game | None:
    """The game being played, else the last one played."""
    return Game.objects.filter(table=table).select_related("table").order_by("-number").first()


def seat_view(game: Game, seat: int | None, state: State | None = None) -> dict[str, Any]:
    """What one seat (None: a spectator) may see, and the moves it may make now.

    The only place the platform turns an engine state into something a socket
    or page receives: everything comes from ``state.view(seat)``.
    """
    state = state or get_game(game.table.game).from_json(game.state)
    view = state.view(seat)
    playing = game.status == Game.Status.PLAYING
    legal = state.legal_actions(seat) if seat is not None and playing else []
    return {
        "view": view,
        "legal": legal,
        "seat": seat,
        "my_turn": seat is not None and seat in view["to_act"],
        "move_number": game.move_number,
    }


#: the move log shows the latest moves only
LOG_LENGTH = 30


def game_log(game: Game, limit: int = LOG_LENGTH) -> list[Move]:
    moves = list(Move.objects.filter(game=game).order_by("-number")[:limit])
    moves.reverse()
    return moves


def seat_players(table: Table, view: dict[str, Any] | None, seats: list[Seat] | None = None) -> list[dict[str, Any]]:
    """Who sits where, with card counts and whose turn it is (all public)."""
    sizes = (view or {}).get("hand_sizes") or []
    to_act = set((view or {}).get("to_act") or [])
    players = []
    for seat in table.seats.all() if seats is None else seats:
        user = seat.user
        players.append(
            {
                "index": seat.index,
                "name": user.name if user else (f"{seat.get_bot_level_display()} bot" if seat.bot_level else "empty"),
                "username": user.username if user else None,
                "is_bot": seat.is_bot or bool(user and user.is_bot),
                "away": seat.away,
                "cards": sizes[seat.index] if seat.index < len(sizes) else None,
                "turn": seat.index in to_act,
            }
        )
    return players


#: what every socket of a table needs after a move, computed once per move per process; sockets
#: render on a thread pool, so the LRU is only touched under its lock
_SHARED: LRUCache[tuple[int, int], dict[str, Any]] = LRUCache(maxsize=512)
_SHARED_LOCK = threading.Lock()


def _shared_get(key: tuple[int, int] | None) -> dict[str, Any] | None:
    if key is None:
        return None
    with _SHARED_LOCK:
        return _SHARED.get(key)


def _game_shared(game: Game) -> dict[str, Any]:
    """The game's engine state, move log, score sheet and previous result at this move.

    All of it is fixed by (game, move number), so the sockets of one table (each
    rendering its own seat) share one copy instead of each re-reading it. Nothing
    here is seat-specific: views are made per seat. The game row itself may change
    without a move (a new deadline when a player leaves), so the freshest row read
    replaces the kept one.
    """
    key = (game.pk, game.move_number)
    shared = _shared_get(key)
    if shared is not None:
        shared["game"] = game
    else:
        previous = None
        if game.number > 1:
            earlier = Game.objects.filter(match_id=game.match_id, number=game.number - 1)
            previous = earlier.values("pk", "result").first()
        shared = {
            "game": game,
            "state": get_game(game.table.game).from_json(game.state),
            "log": game_log(game),
            "sheet": sheet_view(game.table.game, Match.objects.values_list("sheet", flat=True).get(pk=game.match_id)),
            "previous": previous,
        }
        with _SHARED_LOCK:
            _SHARED[key] = shared
    return shared


@dataclass
class Snapshot:
    """A table as its sockets show it at one moment: read once, then each seat's context is pure."""

    table: Table
    seats: list[Seat]
    game: Game | None
    shared: dict[str, Any] | None  # the game's ``_game_shared`` data

    @property
    def key(self) -> tuple[int, int]:
        """(game, move number): which is newer; a table before its first game is (0, 0)."""
        return (self.game.pk, self.game.move_number) if self.game is not None else (0, 0)

    def context(self, seat: int | None) -> dict[str, Any]:
        """Everything one seat (None: a spectator) is sent: its own view, never another seat's."""
        table, seats, game = self.table, self.seats, self.game
        if game is None or self.shared is None:
            return {
                "table": table,
                "ui": game_ui(table.game),
                "seat": seat,
                "game": None,
                "players": seat_players(table, None, seats),
                "public": {"table": table.pk, "status": table.status, "game": None, "seat": seat},
            }
        shared = self.shared
        sv = seat_view(game, seat, shared["state"])
        return {
            "table": table,
            "ui": game_ui(table.game),
            "game": game,
            "seat": seat,
            **sv,
            "players": seat_players(table, sv["view"], seats),
            "log": shared["log"],
            "sheet": shared["sheet"],
            "previous": shared["previous"],
            "me_away": any(s.away for s in seats if s.index == seat),
            "public": {
                "table": table.pk,
                "status": table.status,
                "game": game.pk,
                "number": game.number,
                "seat": seat,
                "move": game.move_number,
                "view": sv["view"],
                "legal": sv["legal"],
                "commitment": game.commitment,
                "deadline": game.deadline.isoformat() if game.deadline else None,
            },
        }


def table_snapshot(table_id: int, hint: tuple[int, int] | None = None) -> Snapshot:
    """The table, its seats and its current game, read for its sockets.

    ``hint`` is the (game, move number) a change event named: when this
    process already holds that move's shared data, the game row is not read again.
    """
    # the table, its seats and their players in one query
    seats = list(Seat.objects.filter(table_id=table_id).select_related("table", "user").order_by("index"))
    table = seats[0].table if seats else Table.objects.get(pk=table_id)
    cached = _shared_get(hint)
    game = cached["game"] if cached else current_game(table)
    if game is None:
        return Snapshot(table, seats, None, None)
    return Snapshot(table, seats, game, cached or _game_shared(game))


#: what a move changes on the game row (``services.table_apply_action`` saves these)
MOVE_FIELDS = (
    "move_number",
    "state",
    "status",
    "result",
    "finished_at",
    "deadline",
    "turn_started_at",
    "bot_substituted",
)


def snapshot_after_move(before: Snapshot) -> Snapshot | None:
    """``before`` brought up to the game's latest move with two small reads (the game row's move fields,
    the new log lines), or None when a full read is needed (the game is no longer playing).

    A player's move changes nothing else the sockets show: not the table, the seats, the sheet
    or the previous game (a timeout or a bot move may mark a seat away: callers read those in full).
    """
    game = before.game
    assert game is not None and before.shared is not None
    row = Game.objects.filter(pk=game.pk).values(*MOVE_FIELDS).first()
    if row is None or row["status"] != Game.Status.PLAYING:
        return None
    fresh = copy.copy(game)
    for name, value in row.items():
        setattr(fresh, name, value)
    new = list(Move.objects.filter(game_id=game.pk, number__gt=game.move_number).order_by("number"))
    log = before.shared["log"]
    shared = {
        **before.shared,
        "game": fresh,
        "state": get_game(before.table.game).from_json(fresh.state),
        "log": (log + new)[-LOG_LENGTH:] if new else log,
    }
    return Snapshot(before.table, before.seats, fresh, shared)


def socket_state(table_id: int, user, hint: tuple[int, int] | None = None) -> dict[str, Any]:
    """Everything one socket (one seat, or a spectator) is sent after a change."""
    snapshot = table_snapshot(table_id, hint)
    me = user is not None and user.is_authenticated
    seat = next((s.index for s in snapshot.seats if me and s.user_id == user.pk), None)
    return snapshot.context(seat)


#: what ``secrets.token_urlsafe`` makes; anything else in a link was not made by us
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
INVITE_INVALID = "This invite link is not valid."


def invite_token_valid(token: str) -> bool:
    """An empty token (none given) or one shaped like ours; compare_digest refuses non-ASCII text."""
    return token == "" or bool(INVITE_TOKEN.fullmatch(token))


def table_visible_to(table: Table, user, token: str = "") -> bool:
    """Public tables are open to everyone; a private one to its creator, its seated players
    and whoever holds its invite link. The lobby, the table page and the socket all ask here."""
    if not table.private or (invite_token_valid(token) and token and secrets.compare_digest(token, table.invite_token)):
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.pk == table.created_by_id or table.seats.filter(user=user).exists()


def replay_step(game: Game, step: int) -> dict[str, Any]:
    """A finished game rebuilt from its move log up to ``step``, with every hand shown."""
    moves = list(Move.objects.filter(game=game).order_by("number"))
    step = max(0, min(step, len(moves)))
    engine = get_game(game.table.game)
    state = engine.new(options=game.options, seats=game.table.seats_count, dealer=game.dealer, deck=game.deck)
    for move in moves[:step]:
        state.apply(move.seat, move.action)
    table = game.table
    return {
        "game": game,
        "table": table,
        "ui": game_ui(table.game),
        "step": step,
        "steps": len(moves),
        "moves": moves,
        "spectator": state.view(None),
        "hands": [state.view(s).get("hand", []) for s in range(table.seats_count)],
        "players": seat_players(table, state.view(None)),
        "commitment_ok": deck_commitment(game.deck, game.salt) == game.commitment,
        "replay_note": engine.replay_note,
        "final_matches_log": step < len(moves) or state.to_json() == game.state,
    }
