"""Reads for live tables: whose seat, which game, and each seat's own view."""

from __future__ import annotations

from typing import Any

from games import get_game
from tables.fairness import deck_commitment
from tables.models import Game, Move, Seat, Table
from tables.sheets import sheet_rows


def table_with_seats(table_id: int) -> Table:
    return Table.objects.select_related("created_by").prefetch_related("seats__user").get(pk=table_id)


def seat_index_of(table: Table, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).values_list("index", flat=True).first()


def current_game(table: Table) -> Game | None:
    """The game being played, else the last one played."""
    return Game.objects.filter(table=table).select_related("table").order_by("-number").first()


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """What one seat (None: a spectator) may see, and the moves it may make now.

    The only place the platform turns an engine state into something a socket
    or page receives: everything comes from ``state.view(seat)``.
    """
    state = get_game(game.table.game).from_json(game.state)
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


def game_log(game: Game, limit: int = 30) -> list[Move]:
    moves = list(Move.objects.filter(game=game).order_by("-number")[:limit])
    moves.reverse()
    return moves


def seat_players(table: Table, view: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Who sits where, with card counts and whose turn it is (all public)."""
    sizes = (view or {}).get("hand_sizes") or []
    to_act = set((view or {}).get("to_act") or [])
    players = []
    for seat in table.seats.all():
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


def socket_state(table_id: int, user) -> dict[str, Any]:
    """Everything one socket (one seat, or a spectator) is sent after a change."""
    table = table_with_seats(table_id)
    seat = next(
        (s.index for s in table.seats.all() if user is not None and user.is_authenticated and s.user_id == user.pk),
        None,
    )
    game = current_game(table)
    if game is None:
        return {
            "table": table,
            "seat": seat,
            "game": None,
            "players": seat_players(table, None),
            "public": {"table": table.pk, "status": table.status, "game": None, "seat": seat},
        }
    sv = seat_view(game, seat)
    previous = None
    if game.number > 1:
        previous = Game.objects.filter(match_id=game.match_id, number=game.number - 1).values("pk", "result").first()
    return {
        "table": table,
        "game": game,
        "seat": seat,
        **sv,
        "players": seat_players(table, sv["view"]),
        "log": game_log(game),
        "sheet": sheet_rows(table.game, game.match.sheet),
        "previous": previous,
        "me_away": any(p.away for p in table.seats.all() if p.index == seat),
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


def table_visible_to(table: Table, user, token: str = "") -> bool:
    """Public tables are open to everyone; private ones to their players and invite-link holders."""
    if not table.private or (token and token == table.invite_token):
        return True
    return user.is_authenticated and (user.is_staff or table.seats.filter(user=user).exists())


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
        "step": step,
        "steps": len(moves),
        "moves": moves,
        "spectator": state.view(None),
        "hands": [state.view(s).get("hand", []) for s in range(table.seats_count)],
        "players": seat_players(table, state.view(None)),
        "commitment_ok": deck_commitment(game.deck, game.salt) == game.commitment,
        "final_matches_log": step < len(moves) or state.to_json() == game.state,
    }
