"""What a web process's table sockets send after a change, computed once per move, not once per socket.

Per table this process watches, one ``Snapshot`` of the table at its latest
move (table, seats, game, engine state, log, sheet) is read from the database
by one socket and shared by all the others: a move's group event names its
(game, move), and a socket whose snapshot is already there reads nothing. From
a snapshot, each seat's output is made once and shared by every socket of that
seat (all spectators are one "seat", ``None``):

- the public fragments (the status, the seats, the board and the log) are
  rendered once per move from the spectator's context, which holds no card a
  spectator may not see, so no seat can get another's cards through them; a
  page marks its own seat in them with CSS, from its play box (measured under
  the HTML load test, 10 watchers on each of 50 tables: drawing a watcher's
  status and seats was three quarters of what a watcher cost a web process);
- the seat's own fragments (the hand and its actions, the sheet, Leave/Resign)
  are rendered from that seat's own view, as before.

A player's move normally changes only the game row and the log: its group event
then carries the new values (``tables.delta``) and the process builds the next
snapshot from it with no query, keeping the fragments that only the table, the
seats or the game's end change (the sheet, Leave/Resign, the end banner, the
links) as rendered. A socket then sends only the fragments that differ from
what it last sent.

The public fragments are the same in every process, so the process whose socket
made the move draws them once, before its event is published
(``prepare_move_event``), and the event carries them in the mover's language:
a process building the same move from the delta takes them as drawn (they hold
only what a spectator sees) and draws only its own seats' fragments.
Rendering runs on the event loop: a template that touched the database there
would fail loudly (Django refuses sync queries in async code) instead of
quietly costing a query per socket.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from django.template import Context, Engine
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from core.sockets import database_sync_to_async
from tables import boards, relay
from tables.rendering import play_controls, play_html
from tables.seat_row import row_html
from tables.selectors import Snapshot as Data
from tables.selectors import snapshot_from_delta, table_snapshot
from tables.templatetags.cards import backs_in, log_line

#: the empty error box each state carries: it clears an error the seat was shown
ERROR_BOX = '<div id="table-error" class="table-error" role="alert"></div>'

#: the fragments of tables/_live.html, in its order: (id, template, public?)
FRAGMENTS: tuple[tuple[str, str | None, bool], ...] = (
    ("table-status", "tables/_status.html", True),
    ("table-error", None, False),
    ("table-seats", "tables/_seats.html", True),
    ("table-board", "tables/_board.html", True),
    ("table-play", "tables/_play.html", False),
    ("table-log", "tables/_log.html", True),
    ("table-sheet", "tables/_sheet_box.html", False),
    ("table-away", "tables/_away.html", False),
    ("table-end", "tables/_end.html", False),
    ("table-links", "tables/_links.html", False),
)
#: fragments drawn only from the table, the seats, the sheet, the previous game and whether the game is
#: being played: a move that changes none of these (one that comes with a delta) leaves them as they were
STEADY = frozenset({"table-sheet", "table-away", "table-end", "table-links"})
#: a seat's play box, made in ``tables.rendering`` after every move
PLAY = "table-play"
#: a watcher's play box only says that he watches (a public or a private table): no move changes it
WATCHERS_STEADY = frozenset({PLAY})
#: the status line, drawn once per turn of a lineage with the move number and the turn's clock put in (``_status``)
STATUS = "table-status"
#: stand in for the move number and the clock's times while a status is drawn to be kept: NUL, which no name or
#: word on a page holds (Django's forms refuse it), so nothing else in the status reads the same
MOVE_SLOT = mark_safe("\x00move\x00")
DEADLINE_SLOT = mark_safe("\x00deadline\x00")
STARTS_SLOT = mark_safe("\x00starts\x00")


class _Slot:
    """A time the status draws with ``isoformat``, drawn as its slot."""

    def __init__(self, slot: str) -> None:
        self.slot = slot

    def isoformat(self) -> str:
        return self.slot


class _SlottedGame:
    """The game as the kept status draws it: its clock's times as slots, everything else the game's own."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.deadline = _Slot(DEADLINE_SLOT) if game.deadline is not None else None
        self.turn_started_at = _Slot(STARTS_SLOT) if game.turn_started_at is not None else None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


#: stands in for a seat's card count while its row is drawn to be kept (``_CountedRow``); NUL-marked, as the status's
#: slots are (no name holds NUL)
CARDS_SLOT = mark_safe("\x00cards\x00")
#: where a row's card count begins: the cards ``backs`` draws for it go just before (``tables/_seat_row.html``)
COUNT_SPAN = '<span class="count"'


@dataclass(frozen=True)
class _CountedRow:
    """A seat's row drawn with ``CARDS_SLOT`` for its card count, to be filled with any count as the row's
    template draws it: the cards ``backs`` draws for it before the count's span, the number in it (the slot is
    no number: ``backs`` drew nothing for it)."""

    head: str
    span: str
    tail: str

    @classmethod
    def of(cls, html: str) -> _CountedRow | None:
        """The row's parts, or None if the slot is not once in its count's span (then it is drawn in full)."""
        parts = html.split(CARDS_SLOT)
        if len(parts) != 2 or not parts[0].endswith(">") or COUNT_SPAN not in parts[0]:
            return None
        start = parts[0].rindex(COUNT_SPAN)
        return cls(parts[0][:start], parts[0][start:], parts[1])

    def filled(self, cards: int, language: str) -> str:
        return mark_safe(f"{self.head}{backs_in(cards, language)}{self.span}{cards}{self.tail}")


#: the seats' fragment, whose rows keep their steady parts from one move to the next (``Snapshot._seat_parts``)
SEATS = "table-seats"
#: one seat's row of the seats' fragment, kept per what it shows (``Snapshot._seat_rows``)
ROW_TEMPLATE = "tables/_seat_row.html"
#: the seats' fragment as ``tables/_seats.html`` lays out its rows, once each row is drawn (``_seat_rows``): its
#: loop's work was as much as a row's
SEATS_HTML = '<ul id="table-seats" class="seats">\n  {}\n</ul>\n'
#: the board's fragment as ``tables/_board.html`` lays out the game's board: drawn here, the game's board template
#: is not looked up again for its include on every move
BOARD = "table-board"
BOARD_HTML = '<section id="table-board" class="board">\n  {}\n</section>\n'
#: the log's fragment, sent whole only to a page that lacks its earlier lines
LOG = "table-log"
#: the public fragments a move's event carries, drawn in the process that made it (the log goes as its new lines)
CARRIED = frozenset(fid for fid, template, public in FRAGMENTS if public and fid != LOG)
#: the log's new lines, newest first, as an insert at the top of a page's list (``tables/_log.html``'s)
TAIL = '<ol id="table-log-lines" hx-swap-oob="afterbegin">{}</ol>'
LOG_TEMPLATE = next(template for fid, template, _ in FRAGMENTS if fid == LOG and template is not None)


def _draw(template: str, context: dict[str, Any]) -> str:
    """``template`` drawn from ``context`` as ``render_to_string`` would, without localizing numbers: a table's
    fragments show only whole numbers (counts, move numbers, ratings, points already formatted by their filters),
    which every language writes with the same digits, and Django's localizing of each looked up the reader's
    language and its formats once per number (a tenth of a move's template time, measured in a shell). The
    template is taken from the engine itself: ``get_template`` asks every configured engine through its backend
    wrapper (15 us a call in a shell, 3 us this way; five fragments a move)."""
    return Engine.get_default().get_template(template).render(Context(context, use_l10n=False))


def _row_html(context: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    """Seat ``p``'s row as its template draws it: made in Python (``tables.seat_row``) when its count is a slot or
    none and it shows only what that makes, else drawn by the template. Its context's view holds each entry the
    row reads: a key a game's view lacks cost the template a failed lookup (its exceptions and a dir() of the dict),
    a third of a row's drawing; a missing one drew as "" and shows as None or () does (no badge, no seat out). Made
    only when a row is drawn, which most moves' rows are not (``Snapshot._seat_rows``)."""
    view = context.get("view") or {}
    if p.get("cards") is None or p.get("cards") is CARDS_SLOT:
        made = row_html(context.get("game"), view, p, lang)
        if made is not None:
            return mark_safe(made)
    row_view = {k: view.get(k) for k in ("dealer", "roles", "tricks")}
    return _draw(ROW_TEMPLATE, {**context, "view": {**row_view, "finished": view.get("finished") or ()}, "p": p})


#: tells apart snapshots read in full: those built from deltas since share their first one's number
_LINEAGE = itertools.count(1)


@dataclass
class Snapshot:
    data: Data
    #: per (what, seat, language): a seat's context, fragments or JSON state
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: same lineage, same table, seats and game: only moves in between, so log lines drawn earlier still hold
    lineage: int = field(default_factory=lambda: next(_LINEAGE))
    #: what is drawn from what a move cannot change (the table, the seats, the sheet, the game's previous one)
    #: or is kept per what it shows (a status per turn, a seat's row per turn, count and badges): one dict for
    #: the whole lineage, so a move's snapshot takes it over as it is
    kept: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    def follow(self, data: Data) -> Snapshot:
        """The next snapshot after a move that came with a delta: what its lineage keeps carried over."""
        return Snapshot(data, {}, self.lineage, self.kept)

    def adopt(self, drawn: dict[str, Any]) -> None:
        """Take the public fragments of this move as the process that made it drew them (``carried``)."""
        lang = drawn.get("lang")
        for fid, html in (drawn.get("html") or {}).items():
            if fid in CARRIED and isinstance(html, str):
                self.memo.setdefault(("public", fid, lang), html)
        tail = drawn.get("tail")
        if tail and isinstance(tail[1], str):
            self.memo.setdefault(("tail", tail[0], lang), tail[1])

    def carried(self, before: Snapshot, lang: str) -> dict[str, Any]:
        """This move's public fragments in ``lang``, and its log's new lines after ``before``'s, for its event."""
        html = {fid: self._public(fid, template, lang) for fid, template, _ in FRAGMENTS if fid in CARRIED and template}
        mark = before.log_mark
        tail = self.log_tail(mark, lang)
        return {"lang": lang, "html": html, "tail": [mark[1], tail] if tail is not None else None}

    @property
    def _log(self) -> list[Any]:
        return (self.data.shared or {}).get("log") or []

    @property
    def log_mark(self) -> tuple[int, int]:
        """(lineage, number of the newest logged move): where a socket's log stands once sent this one."""
        log = self._log
        return (self.lineage, log[-1].number if log else 0)

    def log_tail(self, mark: tuple[int, int] | None, lang: str) -> str | None:
        """The log's lines after ``mark`` as an insert at the top of the socket's list, or None when the
        socket must get the whole log again (another lineage, no list yet, or a gap since)."""
        log = self._log
        if mark is None or mark[0] != self.lineage or not log or mark[1] < log[0].number - 1 or mark[1] == 0:
            return None
        memo_key = ("tail", mark[1], lang)
        if memo_key not in self.memo:
            lines = [m for m in log if m.number > mark[1]]
            players = self.context(None, lang)["players"]
            # each line is drawn once and kept (a logged move never changes): the tail is only joined
            drawn = "".join(log_line(m, players, lang) for m in reversed(lines))
            self.memo[memo_key] = TAIL.format(drawn) if lines else ""
        return str(self.memo[memo_key])

    @property
    def key(self) -> tuple[int, int]:
        return self.data.key

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat of the user with this id (None: a visitor), if he sits at the table."""
        seats = self.memo.get(("seats",))
        if seats is None:  # looked up for every socket of the table after every move: a dict, made once
            seats = self.memo["seats",] = {}
            for s in self.data.seats:  # a user's first seat, as before (a stand-in bot may hold several)
                if s.user_id is not None:
                    seats.setdefault(s.user_id, s.index)
        return seats.get(user_id) if user_id is not None else None

    def context(self, seat: int | None, lang: str | None = None) -> dict[str, Any]:
        """Exactly what ``selectors.socket_state`` gives one seat."""
        memo_key = ("context", seat, lang or get_language())  # the context holds words in the reader's language
        if memo_key not in self.memo:
            self.memo[memo_key] = self.data.context(seat, memo_key[2])
        return self.memo[memo_key]

    def fragments(self, seat: int | None, log: bool = True, lang: str | None = None) -> list[tuple[str, str]]:
        """(id, html) of every fragment of ``tables/_live.html`` as ``seat`` sees it.

        ``log=False``: all but the log, which a socket that holds its earlier lines gets as
        only the new ones (``log_tail``), so the whole log is drawn only for a socket that needs it.
        """
        # the language read once: asgiref's context-local lookup is a good part of a watcher's cost
        lang = lang or get_language()
        memo_key = ("html", seat, lang, log)
        if memo_key not in self.memo:
            context = self._with_controls(seat, lang)
            self.memo[memo_key] = [
                (
                    fid,
                    ERROR_BOX
                    if template is None
                    else self._public(fid, template, lang)
                    if shared
                    else self._own(fid, template, context, lang),
                )
                for fid, template, shared in FRAGMENTS
                if log or fid != LOG
            ]
        return self.memo[memo_key]

    def log_html(self, lang: str | None = None) -> str:
        """The whole log fragment (the same for every seat)."""
        return self._public(LOG, LOG_TEMPLATE, lang or get_language())

    def _own(self, fid: str, template: str, context: dict[str, Any], lang: str) -> str:
        if fid == PLAY and context["seat"] is not None:
            return play_html(context, lang)  # what its template's one tag draws, without the template around it
        if fid not in STEADY and not (fid in WATCHERS_STEADY and context["seat"] is None):
            return _draw(template, context)
        key = ("steady", fid, context["seat"], lang)
        if key not in self.kept:
            self.kept[key] = _draw(template, context)
        return str(self.kept[key])

    def _public(self, fid: str, template: str, lang: str) -> str:
        """A public fragment, rendered once from the spectator's context for every seat."""
        memo_key = ("public", fid, lang)
        if memo_key not in self.memo:
            context = self._with_controls(None, lang)
            if fid == SEATS:
                self._seat_parts(context["players"], context.get("teams"), lang)
                self._seat_rows(context, lang)
                self.memo[memo_key] = SEATS_HTML.format("".join(p["row"] for p in context["players"]))
            elif fid == BOARD and context.get("game"):
                board, made = context["ui"]["board"], boards.MADE.get(context["ui"]["board"])
                self.memo[memo_key] = BOARD_HTML.format(made(context, lang) if made else _draw(board, context))
            elif fid == STATUS:
                self.memo[memo_key] = self._status(template, context, lang)
            else:
                self.memo[memo_key] = _draw(template, context)
        return str(self.memo[memo_key])

    def _status(self, template: str, context: dict[str, Any], lang: str) -> str:
        """The status line. Within a lineage (the same table, seats and game: a change to any is read afresh) a
        move changes in it only the move number, whose turn it is and the turn's clock (its deadline and start):
        it is drawn once for each turn with slots for those and kept for the snapshots that follow by delta, and
        each move puts its number and times in (ISO times and digits: nothing to escape). A game's first move
        (it shows the previous game's result) and a game over are drawn whole."""
        view = context.get("view") or {}
        move, game, table = context.get("move_number"), context.get("game"), context["table"]
        if game is None or not move or view.get("over"):
            return _draw(template, context)
        turn = tuple(p["index"] for p in context["players"] if p["turn"])
        clock = (game.deadline is not None, game.turn_started_at is not None)
        key = (STATUS, lang, game.pk, table.status, table.paused_at, turn, clock)
        shape = self.kept.get(key)
        if shape is None:
            slotted = {**context, "move_number": MOVE_SLOT, "game": _SlottedGame(game)}
            shape = self.kept[key] = _draw(template, slotted)
        html = str(shape).replace(MOVE_SLOT, str(move))
        if game.deadline is not None:
            html = html.replace(DEADLINE_SLOT, game.deadline.isoformat())
        if game.turn_started_at is not None:
            html = html.replace(STARTS_SLOT, game.turn_started_at.isoformat())
        return html

    def _seat_parts(self, players: list[dict[str, Any]], teams: Any, lang: str) -> None:
        """Each seat's name and its badges of standing (rating, reliability, bot, away), drawn once for the
        snapshots that follow this one by delta (nothing they show changes without a full read) and put into
        its player's row, so a move draws only what a move changes (two thirds of ``_seats.html``'s work)."""
        for p in players:
            key = ("steady", "seat-parts", p["index"], lang)
            if key not in self.kept:
                context = {"p": p, "teams": teams}
                self.kept[key] = (
                    _draw("tables/_seat_top.html", context),
                    _draw("tables/_seat_standing.html", context),
                )
            p["top"], p["standing"] = self.kept[key]

    def _seat_rows(self, context: dict[str, Any], lang: str) -> None:
        """Each seat's row, drawn once for what it shows and kept for the snapshots that follow by delta (its
        name and standing stay within a lineage): a move changes one or two rows (whose turn, a card count, a
        role badge), and a row seen before in the game (the same turn and badges) is not drawn again. Its card
        count, which changes with nearly every move, is drawn as a slot and put in (``_CountedRow``)."""
        view = context.get("view") or {}
        # what a row reads of the view and the game besides its player's own entries
        shared = (
            context.get("game") is not None,
            view.get("dealer"),
            repr(view.get("finished")),
            repr(view.get("roles")),
            repr(view.get("tricks")),
        )
        for p in context["players"]:
            cards = p["cards"]
            key = ("seat-row", lang, p["index"], p["turn"], p["away"], p["team"], tuple(p["badges"]), *shared)
            if type(cards) is int:
                if key not in self.kept:  # None: the slot was not where a count goes, so each count is drawn in full
                    self.kept[key] = _CountedRow.of(_row_html(context, {**p, "cards": CARDS_SLOT}, lang))
                counted: _CountedRow | None = self.kept[key]
                if counted is not None:
                    p["row"] = counted.filled(cards, lang)
                    continue
            full = (*key, cards)
            if full not in self.kept:
                self.kept[full] = _row_html(context, p, lang)
            p["row"] = self.kept[full]

    def _with_controls(self, seat: int | None, lang: str) -> dict[str, Any]:
        memo_key = ("controls", seat, lang)
        if memo_key not in self.memo:
            if seat is not None and all(("steady", fid, seat, lang) in self.kept for fid in STEADY):
                # its other own fragments kept: only the play box is drawn, from what it reads of the context
                context = self.data.play_context(seat, lang)
            else:
                context = dict(self.context(seat, lang))
            # only a seat's play box reads them: a watcher's says that he watches, and the public fragments are
            # drawn from the watcher's context once a move (40 us a move in a shell)
            if context.get("game") is not None and seat is not None:
                context["controls"] = play_controls(context["table"].game, context["legal"], context["view"], lang)
            self.memo[memo_key] = context
        return self.memo[memo_key]

    def json(self, seat: int | None) -> str:
        memo_key = ("json", seat)
        if memo_key not in self.memo:
            self.memo[memo_key] = json.dumps({"type": "state", **self.context(seat)["public"]})
        return self.memo[memo_key]


@dataclass
class _Table:
    watchers: int = 0
    snapshot: Snapshot | None = None
    loading: asyncio.Future | None = None
    started: int = 0  # loads begun
    done: int = 0  # the number of the last load finished


#: the tables this process has sockets on; only touched from the event loop
_TABLES: dict[int, _Table] = {}

# channels' wrapper hands the thread's connection back after each read (to the pool, when there is one)
_read = database_sync_to_async(table_snapshot)


def watch(table_id: int) -> None:
    _TABLES.setdefault(table_id, _Table()).watchers += 1


def unwatch(table_id: int) -> None:
    table = _TABLES.get(table_id)
    if table is not None:
        table.watchers -= 1
        if table.watchers <= 0:
            del _TABLES[table_id]


def latest(table_id: int) -> Snapshot | None:
    """The newest snapshot this process holds of a table (what its sockets were last sent), if any."""
    table = _TABLES.get(table_id)
    return table.snapshot if table is not None else None


async def _load(table_id: int, table: _Table, number: int) -> None:
    try:
        # loads of a table run one at a time, so the one finishing now read the newest rows
        table.snapshot = Snapshot(await _read(table_id))
        table.done = number
    finally:
        table.loading = None


def _follow(table: _Table, delta: str | None) -> Snapshot | None:
    """The table's next snapshot built from a move's ``delta`` and made the latest, when it follows on from the
    one held and no read is under way (between two awaits: no other load can interleave)."""
    snap = table.snapshot
    if not delta or snap is None or table.loading is not None:
        return None
    moved = snapshot_from_delta(snap.data, delta)
    if moved is None:
        return None
    table.started += 1
    table.snapshot, table.done = snap.follow(moved), table.started
    return table.snapshot


def prepare_move_event(group: str, event: dict[str, Any]) -> None:
    """A move made by a socket of this process, about to be published (``core.outbox.on_send``): the process
    builds the move's snapshot now and puts the public fragments it draws into the event, so the other
    processes draw only their own seats'."""
    table_id = relay.table_of(group)
    if event.get("type") != "table.changed" or event.get("move") is None or table_id is None:
        return
    table = _TABLES.get(table_id)
    before = table.snapshot if table is not None else None
    if table is None or before is None or before.key >= (event["game"], event["move"]):
        return
    after = _follow(table, event.get("delta"))
    if after is not None and after.key == (event["game"], event["move"]):
        event["public"] = after.carried(before, get_language())


async def snapshot(
    table_id: int,
    at_least: tuple[int, int] | None = None,
    fresh: bool = False,
    delta: str | None = None,
    drawn: dict[str, Any] | None = None,
) -> Snapshot:
    """The table's latest snapshot in this process.

    ``at_least``: a move's (game, move) from its event; the database is read only when
    this process has nothing as new. ``fresh``: a change that is not a move (a seat gone
    away, a table stopped) or a socket opening: one read begun after the call serves it.
    Concurrent sockets share one read. ``delta``: what the move changed, from its event:
    when it follows on from the snapshot held, the next one is built from it, unread. ``drawn``: the
    public fragments the process that made the move drew for it (``prepare_move_event``).
    """
    table = _TABLES.setdefault(table_id, _Table())
    ticket = table.started
    for _ in range(3):
        snap = table.snapshot
        if snap is not None and (table.done > ticket if fresh else (at_least is None or snap.key >= tuple(at_least))):
            return snap
        if table.loading is None:
            if not fresh and (after := _follow(table, delta)) is not None:
                if drawn and at_least is not None and after.key == tuple(at_least):
                    after.adopt(drawn)
                continue
            table.started += 1
            table.loading = asyncio.ensure_future(_load(table_id, table, table.started))
        await asyncio.shield(table.loading)
    assert table.snapshot is not None
    return table.snapshot
