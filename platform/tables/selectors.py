"""Reads for live tables: whose seat, which game, and each seat's own view."""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cachetools import LRUCache
from django.contrib.auth.models import AnonymousUser
from django.urls import get_script_prefix, reverse
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from accounts.bots import LEVEL_WORDS, seat_names
from accounts.models import User
from games import get_game
from games.base import State
from games.outcome import halves_to_number
from tables import hooks
from tables.delta import delta_apply
from tables.fairness import deck_commitment
from tables.labels import TEAM_LABELS
from tables.models import Game, Match, Move, Seat, Table
from tables.sheets import match_sheet, sheet_view

GENERIC_BOARD = "tables/boards/generic.html"


def game_ui(game_name: str, language: str | None = None) -> dict[str, Any]:
    """What the table page and the replay draw from the game's own UI metadata (never from its name).

    Its words are in the reader's language (``units`` is the form a count of five or more takes, the one "how
    many" takes in Russian and Ukrainian too): made once per game and language, for every seat's context after
    every move. Read only: every page and socket of that language shares it. ``language``: the active one, when
    the caller has read it already (each lookup of it is asgiref's context-local lookup, 3-4 us).
    """
    return _game_ui(game_name, language or get_language())


@lru_cache(maxsize=256)
def _game_ui(game_name: str, language: str | None) -> dict[str, Any]:
    game = get_game(game_name)
    return {
        "title": gettext(game.title),
        "board": game.ui.board or GENERIC_BOARD,
        "seat_badges": {key: (style, gettext(word)) for key, (style, word) in game.ui.seat_badges.items()},
        "unit": ngettext(*game.unit, 1),
        "units": ngettext(*game.unit, 5),
        "resign_ends": game.resign_ends,
    }


def rating_label(rated: bool, bots: bool, language: str | None = None) -> str:
    """How a table is rated, in words: a table with a bot seated never moves a human's rating (``language``: the
    active one, when the caller has read it)."""
    return _rating_label(rated, bots, language or get_language())


@lru_cache(maxsize=64)
def _rating_label(rated: bool, bots: bool, language: str | None) -> str:
    if not rated:
        return gettext("unrated")
    return gettext("unrated (bots)") if bots else gettext("rated")


@lru_cache(maxsize=1024)
def _word(word: str, language: str | None) -> str:
    """A game's word in ``language`` (the active one): every seat's context after every move translates the
    same few badge words, and each ``gettext`` looks the language up again."""
    return gettext(word)


def seat_index_of(table: Table | int, user: User | AnonymousUser | None) -> int | None:
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


@lru_cache(maxsize=4096)
def _profile_url(username: str, prefix: str) -> str:
    return reverse("profile", args=[username])


def profile_url(username: str, prefix: str | None = None) -> str:
    """A player's profile link: the seats of every table draw it for every seat after every move (``prefix``:
    the script prefix, when the caller has read it already)."""
    return _profile_url(username, get_script_prefix() if prefix is None else prefix)


def seat_players(
    table: Table,
    view: dict[str, Any] | None,
    seats: list[Seat] | None = None,
    ratings: dict[int, tuple[str, bool]] | None = None,
    reliability: dict[int, hooks.Reliability] | None = None,
    steady: dict[tuple[Any, ...], Any] | None = None,
    language: str | None = None,
) -> list[dict[str, Any]]:
    """Who sits where, with card counts, whose turn it is, each player's rating for this game and how reliably he
    finishes his games (all public).

    ``steady``: a dict kept while the table, its seats and their standing stay as read (a snapshot and those built
    from its moves' deltas): what a move cannot change of each player is made once per language there, and each
    call adds only his cards, turn and badges (a context for every seat after every move). ``language``: the
    active one, when the caller has read it.
    """
    sizes = (view or {}).get("hand_sizes") or []
    to_act = set((view or {}).get("to_act") or [])
    language, prefix = language or get_language(), get_script_prefix()
    key = ("players", language, prefix)
    base = steady.get(key) if steady is not None else None
    if base is None:
        base = _players_steady(table, seats, ratings, reliability, language, prefix)
        if steady is not None:
            steady[key] = base
    badges = get_game(table.game).ui.badges
    return [
        {
            **p,
            "cards": sizes[p["index"]] if p["index"] < len(sizes) else None,
            "turn": p["index"] in to_act,
            #: role badges ("attacks", "takes") from the game's UI, translated here at the platform's edge
            "badges": [(style, _word(word, language)) for style, word in badges(view or {}, p["index"])],
        }
        for p in base
    ]


def _players_steady(
    table: Table,
    seats: list[Seat] | None,
    ratings: dict[int, tuple[str, bool]] | None,
    reliability: dict[int, hooks.Reliability] | None,
    language: str | None,
    prefix: str,
) -> list[dict[str, Any]]:
    """Each seat's player as no move changes him: name, link, bot level, team, away, rating and reliability."""
    seats = list(table.seats.select_related("user") if seats is None else seats)
    names = seat_names(seats)
    teams = get_game(table.game).teams(table.seats_count, table.options)
    players = []
    for seat in seats:
        user = seat.user
        players.append(
            {
                "index": seat.index,
                "name": names[seat.index] or _word("empty", language),
                "username": user.username if user else None,
                "url": profile_url(user.username, prefix) if user else None,
                "is_bot": seat.is_bot or bool(user and user.is_bot),
                #: a bot's level, shown as a badge beside its name
                "level": LEVEL_WORDS.get(seat.bot_level, "") if seat.is_bot else "",
                "team": next((t for t, members in enumerate(teams) if seat.index in members), None) if teams else None,
                "away": seat.away,
                #: (rating as shown, provisional?) for this game, or None
                "rating": (ratings or {}).get(user.pk) if user else None,
                #: hooks.Reliability of a human player, or None
                "reliability": (reliability or {}).get(user.pk) if user else None,
            }
        )
    return players


def team_rows(table: Table, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table's teams (none without): each by its colour's name and its players' names, for every page."""
    teams = get_game(table.game).teams(table.seats_count, table.options)
    return [
        {
            "index": t,
            "label": TEAM_LABELS[t % len(TEAM_LABELS)],
            "names": ", ".join(p["name"] for p in players if p["index"] in members),
        }
        for t, members in enumerate(teams)
    ]


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
    #: read with the rest (the template side must not query): a listener keeps the table for bots
    #: (a tournament board), and the end-of-match banner's table-wide part
    kept_for_bots: bool = False
    ended: dict[str, Any] | None = None
    #: user id -> (rating as shown, provisional?) for this game, read with the seats (a rating changes only
    #: when a game ends, and then the table is read afresh)
    ratings: dict[int, tuple[str, bool]] = field(default_factory=dict)
    #: user id -> hooks.Reliability of each seated human, read with the seats (it changes when a match ends or a
    #: bot takes a seat, and then the table is read afresh)
    reliability: dict[int, hooks.Reliability] = field(default_factory=dict)
    #: what is made from the table and the seats alone (``seat_players``' steady part, the rating's words), kept
    #: for the snapshots built from this one's moves, which leave them as read
    steady: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, int]:
        """(game, move number): which is newer; a table before its first game is (0, 0)."""
        return (self.game.pk, self.game.move_number) if self.game is not None else (0, 0)

    def context(self, seat: int | None, language: str | None = None) -> dict[str, Any]:
        """Everything one seat (None: a spectator) is sent: its own view, never another seat's. ``language``: the
        active one, when the caller has read it (looked up once here, not by each part that reads it)."""
        table, seats, game = self.table, self.seats, self.game
        language = language or get_language()
        bots = self.steady.get(("bots",))
        if bots is None:
            bots = self.steady["bots",] = any(s.is_bot or (s.user is not None and s.user.is_bot) for s in seats)
        rating = rating_label(table.rated, bots, language)
        if game is None or self.shared is None:
            players = seat_players(table, None, seats, self.ratings, self.reliability, self.steady, language)
            return {
                "table": table,
                "ui": game_ui(table.game, language),
                "seat": seat,
                "game": None,
                "players": players,
                "teams": team_rows(table, players),
                "rating": rating,
                "public": {"table": table.pk, "status": table.status, "game": None, "seat": seat},
            }
        shared = self.shared
        sv, me_away = self._own_view(game, shared, seat)
        players = seat_players(table, sv["view"], seats, self.ratings, self.reliability, self.steady, language)
        return {
            "table": table,
            "ui": game_ui(table.game, language),
            "game": game,
            "seat": seat,
            **sv,
            "players": players,
            "teams": team_rows(table, players),
            "log": shared["log"],
            "log_keep": LOG_LENGTH,
            "sheet": shared["sheet"],
            "previous": shared["previous"],
            "me_away": me_away,
            "me_resigned": any(s.resigned for s in seats if s.index == seat),
            # a human's seat given a bot level from above (an event's disqualification or time limit): no way back
            "me_held": any(s.bot_level and s.user is not None and not s.user.is_bot for s in seats if s.index == seat),
            "leave_ends_table": (
                seat is not None
                and table.status == Table.Status.PLAYING
                and not self.kept_for_bots
                and _last_human(seats, seat)
            ),
            "rating": rating,
            "end": table_end(self.ended, seats, seat),
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

    def _own_view(self, game: Game, shared: dict[str, Any], seat: int | None) -> tuple[dict[str, Any], bool]:
        """``seat_view`` of the seat, and whether its player is away (a bot plays his seat: no controls, the
        server refuses his moves, and no "your turn")."""
        sv = seat_view(game, seat, shared["state"])
        me_away = any(s.away for s in self.seats if s.index == seat)
        if me_away:
            sv["legal"], sv["my_turn"] = [], False
        return sv, me_away

    def play_context(self, seat: int, language: str | None = None) -> dict[str, Any]:
        """The entries of ``context(seat)`` a seated player's play box reads (``tables.rendering.play_html``), with
        the same values: after each move a seat's socket draws only that box of its own (the rest of its own
        fragments change with the table or the seats, which a move read afresh), and the whole context's other
        entries (the seats with their badges, the teams, the banner) were half of its cost. ``language``: the
        active one, when the caller has read it."""
        game, shared = self.game, self.shared
        if game is None or shared is None:
            return self.context(seat, language)
        sv, me_away = self._own_view(game, shared, seat)
        context = {"table": self.table, "game": game, **sv, "me_away": me_away}
        if not sv["legal"]:  # the seats' names and turns: read only by a box with no move to offer (whom it waits for)
            context["players"] = seat_players(
                self.table, sv["view"], self.seats, self.ratings, self.reliability, self.steady, language
            )
        return context


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
    kept = hooks.table_played_out(table.pk)
    ratings = hooks.seat_ratings(table.game, [s.user_id for s in seats if s.user_id is not None])
    humans = [s.user.pk for s in seats if s.user is not None and not s.is_bot and not s.user.is_bot]
    reliability = hooks.seat_reliability(humans) if humans else {}
    if game is None:
        return Snapshot(table, seats, None, None, kept, ratings=ratings, reliability=reliability)
    shared = cached or _game_shared(game)
    ended = table_end_data(table, game, seats)
    return Snapshot(table, seats, game, shared, kept, ended, ratings, reliability)


def snapshot_from_delta(before: Snapshot, delta: str) -> Snapshot | None:
    """``before`` brought up to the move a group event carried (``tables.delta``), with no query; None
    when the event does not follow on from ``before`` (this process missed a move: read in full).

    The move service sends a delta only when the move changed nothing else the sockets show: not
    the table, the seats, the sheet or the previous game, and the game is still being played.
    """
    game = before.game
    if game is None or before.shared is None:
        return None
    applied = delta_apply(game, delta)
    if applied is None:
        return None
    fresh, new = applied
    log = before.shared["log"]
    shared = {
        **before.shared,
        "game": fresh,
        "state": get_game(before.table.game).from_json(fresh.state),
        "log": (log + new)[-LOG_LENGTH:],
    }
    return Snapshot(
        before.table,
        before.seats,
        fresh,
        shared,
        before.kept_for_bots,
        before.ended,
        before.ratings,
        before.reliability,
        before.steady,
    )


def socket_state(
    table_id: int, user: User | AnonymousUser | None, hint: tuple[int, int] | None = None
) -> dict[str, Any]:
    """Everything one socket (one seat, or a spectator) is sent after a change."""
    snapshot = table_snapshot(table_id, hint)
    user_id = user.pk if user is not None and user.is_authenticated else None
    seat = next((s.index for s in snapshot.seats if user_id is not None and s.user_id == user_id), None)
    return snapshot.context(seat)


def _last_human(seats: list[Seat], seat: int) -> bool:
    """No other human plays here: this player's Leave ends the table (unless it is kept for bots)."""
    return not any(
        not s.away for s in seats if s.index != seat and s.user is not None and not s.is_bot and not s.user.is_bot
    )


def _humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.user is not None and not s.is_bot and not s.user.is_bot]


def table_end_data(table: Table, game: Game, seats: list[Seat]) -> dict[str, Any] | None:
    """The end-of-match banner's table-wide part: places from the game's own sheet (never its name), each
    player's rating change where rated, who won (ties named). None while the match is on."""
    if table.status not in (Table.Status.FINISHED, Table.Status.ABORTED):
        return None
    end: dict[str, Any] = {"finished": table.status == Table.Status.FINISHED, "rows": [], "winners": []}
    if not end["finished"]:
        return end
    match = Match.objects.select_related("table").get(pk=game.match_id)
    standings = match_sheet(match).standings()
    moved = hooks.match_rating_changes(match.pk)
    names = {p["index"]: p["name"] for p in seat_players(table, None, seats)}
    humans = _humans(seats)
    for s in seats:
        placing = standings.get(s.index)
        if placing is None:
            continue
        end["rows"].append(
            {
                "index": s.index,
                "name": names[s.index],
                "place": placing.place,
                "won": placing.won,
                "lost": placing.lost,
                "points": None if placing.points_halves is None else halves_to_number(placing.points_halves),
                "delta": moved.get(s.user_id) if s in humans and s.user_id else None,
            }
        )
    end["rows"].sort(key=lambda row: (row["place"], row["index"]))
    end["winners"] = [row["name"] for row in end["rows"] if row["place"] == 1]
    end["rated"] = any(row["delta"] is not None for row in end["rows"])
    votes = set(table.rematch_votes or [])
    end["rematch"] = {
        "table": table.rematch_id,
        "agreed": [names[s.index] for s in humans if s.user_id in votes],
        "waiting": [names[s.index] for s in humans if s.user_id not in votes],
        "votes": votes,
    }
    return end


def table_end(ended: dict[str, Any] | None, seats: list[Seat], seat: int | None) -> dict[str, Any] | None:
    """The end-of-match banner as one seat sees it (its own row marked, its own rematch vote)."""
    if ended is None:
        return None
    me = next((s for s in _humans(seats) if s.index == seat), None)
    end = {**ended, "seated": me is not None}
    end["rows"] = [{**row, "me": me is not None and row["index"] == me.index} for row in ended.get("rows", [])]
    if "rematch" in ended:
        end["rematch"] = {**ended["rematch"], "voted": me is not None and me.user_id in ended["rematch"]["votes"]}
    return end


#: what ``secrets.token_urlsafe`` makes; anything else in a link was not made by us
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
INVITE_INVALID = gettext_noop("This invite link is not valid.")  # translated where it is shown


def invite_token_valid(token: str) -> bool:
    """An empty token (none given) or one shaped like ours; compare_digest refuses non-ASCII text."""
    return token == "" or bool(INVITE_TOKEN.fullmatch(token))


def table_visible_to(table: Table, user: User | AnonymousUser | None, token: str = "") -> bool:
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
        state.apply_logged(move.seat, move.action)
    table = game.table
    players = seat_players(table, state.view(None))
    return {
        "game": game,
        "table": table,
        "ui": game_ui(table.game),
        "step": step,
        "steps": len(moves),
        "moves": moves,
        "spectator": state.view(None),
        "hands": [state.view(s).get("hand", []) for s in range(table.seats_count)],
        "players": players,
        "teams": team_rows(table, players),
        "commitment_ok": deck_commitment(game.deck, game.salt) == game.commitment,
        "replay_note": engine.replay_note,
        "final_matches_log": step < len(moves) or state.to_json() == game.state,
    }
