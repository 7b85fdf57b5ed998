"""The load test's clients: sockets that read what a browser reads, and what they measured.

Players' sockets run in the load test's own process; the watchers' in a
process of their own (``watchers_process``), as spectators' browsers are
other people's. Both stamp every state they receive with the system's
monotonic clock, so a move's latency to every socket is put together after
the run (``every_socket_latencies``).
"""

from __future__ import annotations

import asyncio
import bisect
import builtins
import collections
import gc
import html
import json
import multiprocessing
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.typing import Origin


@dataclass
class TableStats:
    """A table's two players: the moves they sent and when both seats held each."""

    seats: int = 2
    #: move number -> seat -> when that seat's click that would make it was sent (not refused so far)
    sent: dict[int, dict[int, float]] = field(default_factory=dict)
    seen_seats: dict[int, int] = field(default_factory=dict)
    seat_latencies: list[float] = field(default_factory=list)
    #: when each of ``seat_latencies`` was measured (monotonic clock)
    seat_times: list[float] = field(default_factory=list)
    #: (move, sent, both seats held it) of every measured move: the watchers' receipts are matched to these
    done: list[tuple[int, float, float]] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    why: collections.Counter = field(default_factory=collections.Counter)  # refusals by message
    frames: int = 0
    bytes: int = 0
    #: when each click was sent, refused ones too (a "your turn" push is timed from the last one before it)
    clicks: list[float] = field(default_factory=list)
    #: the watchers' process stamps with the same clock
    clock: Callable[[], float] = time.monotonic

    def sending(self, move: int, seat: int) -> None:
        """A click of ``seat`` that would make ``move``. Both players may click on the same state (one is
        refused): the move is timed from the earlier click standing, and the seats that hold it already
        still count (an earlier version forgot them here, and left out such moves)."""
        now = self.clock()
        self.sent.setdefault(move, {})[seat] = now
        self.seen_seats.setdefault(move, 0)
        self.clicks.append(now)
        self.moves += 1

    def refusal(self, move: int, seat: int) -> None:
        """``seat``'s click for ``move`` was refused: the move, when it comes, is another click's."""
        self.sent.get(move, {}).pop(seat, None)

    def received(self, move: int) -> None:
        if move not in self.sent:
            if self.sent and move < min(self.sent):
                # a new game began: the move that ended the last one is not measured
                self.sent.clear()
                self.seen_seats.clear()
            return
        now = self.clock()
        self.seen_seats[move] += 1
        if self.seen_seats[move] == self.seats:
            clicks = self.sent.pop(move)
            del self.seen_seats[move]
            if clicks:  # (every click for it refused: not a move this client made)
                sent = min(clicks.values())
                self.seat_latencies.append(now - sent)
                self.seat_times.append(now)
                self.done.append((move, sent, now))


@dataclass
class WatcherStats:
    """One watcher's socket: every state it received, as (when, move number) in order."""

    seen: list[tuple[float, int]] = field(default_factory=list)
    frames: int = 0
    bytes: int = 0

    def read(self, raw: str | builtins.bytes, mode: str) -> None:  # (the field above hides the builtin)
        """A frame as a spectator's page gets it: the state's move number, if it is a state."""
        self.frames += 1
        self.bytes += len(raw)
        if mode == "json":
            frame = json.loads(raw)
            move = frame.get("move") if frame.get("type") == "state" else None
        else:
            status = STATUS.search(raw if isinstance(raw, str) else raw.decode())
            move = int(status.group(1)) if status is not None else None
        if move is not None:
            self.seen.append((time.monotonic(), move))


def _held_at(seen: list[tuple[float, int]], times: list[float], move: int, sent: float) -> float | None:
    """When a watcher first held ``move`` or a later one of the same game, after it was sent.

    A later move counts: a process whose snapshot already holds the next move when it serves
    this one's event sends that next state, and the page then shows the table as it is.
    """
    i = bisect.bisect_left(times, sent)
    last = seen[i - 1][1] if i else -1  # the state he held when the move was sent
    while i < len(seen):
        when, number = seen[i]
        if number < last:  # a new game began: this one's move never reached him
            return None
        if number >= move:
            return when
        last = number
        i += 1
    return None


def every_socket_latencies(stats: TableStats, watchers: list[list[tuple[float, int]]]) -> list[float]:
    """Latency from each measured move sent until both seats and every watcher held it."""
    times = [[when for when, _ in seen] for seen in watchers]
    latencies = []
    for move, sent, seats_done in stats.done:
        last = seats_done
        for seen, at in zip(watchers, times, strict=True):
            held = _held_at(seen, at, move, sent)
            if held is None:
                break
            last = max(last, held)
        else:
            latencies.append(last - sent)
    return latencies


# -- what a browser reads: the fragments htmx swaps by id, and the play form's buttons ---------------
STATUS = re.compile(r'<div id="table-status"[^>]*\sdata-move="(\d+)"')
PLAY = re.compile(r'<section id="table-play".*?</section>', re.S)
MOVE_FIELD = re.compile(r'<input type="hidden" name="move" value="(\d+)"')
BUTTON = re.compile(r"<button([^>]*)\sws-send\s[^>]*?name=\"action\" value=(?:\"([^\"]*)\"|'([^']*)')")
CHECKBOX = re.compile(r'<input type="checkbox" name="cards" value="([^"]+)"')
SELECT = re.compile(r'<select name="(\w+)"[^>]*>\s*<option value="([^"]*)"')
BOARD = re.compile(r'<section id="table-board".*?</section>', re.S)
#: the cards of the bout on the board (a throw-in must match one of their ranks)
BOUT_CARD = re.compile(
    r'<div class="pair[^"]*"><span class="pcard[^"]*" data-card="(\w+)"'
    r'|<span class="cover"><span class="pcard[^"]*" data-card="(\w+)"'
)
ERROR = re.compile(r'<div id="table-error"[^>]*>([^<]+)</div>')


def offered_clicks(play: str, board: str, rng: random.Random) -> list[dict]:
    """Every click the play form offers now, as the frame htmx-ext-ws would send for it.

    A button's own name/value, the form's hidden move number and its selects'
    current (first) options; an action composed from ticked cards gets one
    of the hand ticked, preferring (as a player would) one whose rank is already
    in the bout on the board; a card the rules refuse gets an error back, and
    the player tries another click.
    """
    move = MOVE_FIELD.search(play)
    if move is None:
        return []
    base: dict = {"move": move.group(1)}
    for name, value in SELECT.findall(play):
        base[name] = html.unescape(value)
    cards = CHECKBOX.findall(play)
    ranks = {(a or c)[0] for a, c in BOUT_CARD.findall(board)}
    matching = [c for c in cards if c[0] in ranks]
    if matching:
        cards = matching
    clicks = []
    for attrs, dq, sq in BUTTON.findall(play):
        frame = {**base, "action": html.unescape(dq or sq)}
        if "compose" in attrs:
            for card in rng.sample(cards, min(len(cards), 3)):
                clicks.append({**frame, "cards": card})
        else:
            clicks.append(frame)
    rng.shuffle(clicks)
    return clicks


def with_headers(frame: dict, ws_url: str) -> str:
    # what htmx-ext-ws adds to every frame it sends
    headers = {"HX-Request": "true", "HX-Trigger": None, "HX-Trigger-Name": "action", "HX-Target": None}
    return json.dumps({**frame, "HEADERS": {**headers, "HX-Current-URL": ws_url}})


def table_ws_url(url: str, table_id: int, mode: str) -> str:
    """The table socket a page at ``url`` opens (JSON mode: what a program reads, ``?format=json``)."""
    query = "?format=json" if mode == "json" else ""
    return url.replace("http", "ws", 1) + f"/ws/tables/{table_id}/{query}"


def browser_socket(ws_url: str, page_url: str, cookie: str) -> Any:
    """A socket opened as a browser's page opens it: its cookie and origin, no pings of its own (a browser
    sends none; it answers the server's, as this client does)."""
    return connect(
        ws_url,
        origin=Origin(page_url),
        additional_headers={"Cookie": cookie},
        open_timeout=60,
        max_size=2**22,
        ping_interval=None,
    )


@dataclass
class PlayerPage:
    """What a player's page shows: the clicks its last state's play form still offers."""

    mode: str
    rng: random.Random
    clicks: list[dict] = field(default_factory=list)
    board: str = ""
    #: the page's states so far: a click made on one state is stale once the next arrives
    states: int = 0

    def read(self, raw: str | bytes) -> tuple[int | None, str | None]:
        """(the move of a state, the reason of a refusal) the frame brings, None for what it does not."""
        if self.mode == "json":
            frame = json.loads(raw)
            if frame.get("type") == "error":
                return None, str(frame.get("code"))
            if frame.get("type") != "state" or frame.get("move") is None:
                return None, None
            view = frame.get("view") or {}
            mine = frame["seat"] in view.get("to_act", []) and not view.get("over")
            clicks = [{"move": frame["move"], "action": a} for a in frame.get("legal") or []] if mine else []
            self.rng.shuffle(clicks)
            self._shown(clicks)
            return frame["move"], None
        text = raw if isinstance(raw, str) else raw.decode()
        status = STATUS.search(text)
        if status is not None:
            play, shown = PLAY.search(text), BOARD.search(text)
            self.board = shown.group(0) if shown else self.board  # a fragment not sent is unchanged
            self._shown(offered_clicks(play.group(0), self.board, self.rng) if play else [])
            return int(status.group(1)), None
        error = ERROR.search(text)
        return None, (error.group(1)[:40] if error else None)

    def _shown(self, clicks: list[dict]) -> None:
        self.clicks = clicks
        self.states += 1


async def socket(
    url: str,
    table_id: int,
    seat: int,
    cookie: str,
    stats: TableStats,
    gate: asyncio.Semaphore,
    ready: asyncio.Barrier,
    go: asyncio.Event,
    deadlines: list[float],
    rng: random.Random,
    think: float,
    mode: str,
) -> None:
    """A player's table socket, read as a browser's page is: every frame as it comes (its arrival is what
    the move's latency counts), a click on what the page shows ``think`` seconds after it showed it. A
    state that comes meanwhile replaces the page, and the player thinks again about the new one (his
    click on the old one would have been refused as stale: a browser has no such buttons any more);
    after a refusal of his click (a race, or a card the rules refuse) he tries another of the same form
    at once, unless the page has changed since."""
    ws_url = table_ws_url(url, table_id, mode)
    async with gate:  # connect at a pace the servers accept
        ws = await browser_socket(ws_url, url, cookie)
        first = await ws.recv()  # the state on opening: connected
    page = PlayerPage(mode, rng)
    pending: asyncio.Task | None = None
    #: (page state, move) of the click in flight: its refusal is the page's only if no state came since
    clicked: tuple[int, int] | None = None

    async def click(delay: float) -> None:
        nonlocal clicked
        if delay:
            await asyncio.sleep(delay)
        if not page.clicks:
            return
        frame = page.clicks.pop()
        clicked = (page.states, int(frame["move"]) + 1)
        stats.sending(clicked[1], seat)
        await ws.send(json.dumps(frame) if mode == "json" else with_headers(frame, ws_url))

    def plan(delay: float) -> None:
        nonlocal pending
        if pending is not None:
            pending.cancel()
        pending = asyncio.ensure_future(click(delay)) if page.clicks and think >= 0 else None

    async with ws:
        await ready.wait()
        await go.wait()
        try:
            async with asyncio.timeout_at(deadlines[0]):  # the event loop's clock is time.monotonic
                raw = first
                while True:
                    stats.frames += 1
                    stats.bytes += len(raw)
                    move, refused = page.read(raw)
                    if move is not None:
                        stats.received(move)
                        plan(rng.uniform(0.5, 1.5) * think if think > 0 else 0)
                    elif refused is not None:
                        stats.refused += 1
                        stats.why[refused] += 1
                        if clicked is not None:
                            stats.refusal(clicked[1], seat)
                            if clicked[0] == page.states:  # the page as it was: another click of its form
                                plan(0)
                    raw = await ws.recv()
        except TimeoutError:
            pass
        finally:
            if pending is not None:
                pending.cancel()


async def watch(
    url: str,
    table_id: int,
    cookie: str,
    stats: WatcherStats,
    gate: asyncio.Semaphore,
    ready: asyncio.Barrier,
    go: asyncio.Event,
    deadlines: list[float],
    mode: str,
) -> None:
    """A spectator's socket: every state it is sent, read until the deadline. One timeout for the whole run,
    not one per frame as a player's socket needs: 500 watchers' clients share the servers' two cores."""
    ws_url = table_ws_url(url, table_id, mode)
    async with gate:
        ws = await browser_socket(ws_url, url, cookie)
        first = await ws.recv()
    async with ws:
        await ready.wait()
        await go.wait()
        try:
            async with asyncio.timeout_at(deadlines[0]):  # the event loop's clock is time.monotonic
                stats.read(first, mode)
                async for raw in ws:
                    stats.read(raw, mode)
        except TimeoutError:
            pass


# -- a player's presence socket ----------------------------------------------------------------------
@dataclass
class PresenceStats:
    """A player's presence socket (every signed-in page has one): when each "your turn" push arrived."""

    turns: list[float] = field(default_factory=list)
    frames: int = 0


#: a page's heartbeat (``static/js/presence.js`` pings well inside the presence TTL)
HEARTBEAT = 20.0


async def presence_open(url: str, table_id: int, cookie: str, gate: asyncio.Semaphore) -> Any:
    """Open the presence socket a table page opens beside its table socket, and read its hello."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/presence/?at=/tables/{table_id}/"
    async with gate:
        ws = await browser_socket(ws_url, url, cookie)
        await ws.recv()
    return ws


async def presence_read(ws: Any, stats: PresenceStats, until: float) -> None:
    """Read the socket until ``until`` (monotonic), stamping each "your turn" push, pinging as a page does."""
    async with ws:
        ping_at = time.monotonic() + HEARTBEAT
        while (now := time.monotonic()) < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, min(until, ping_at) - now))
            except TimeoutError:
                if time.monotonic() >= ping_at:
                    await ws.send('{"type": "ping"}')
                    ping_at += HEARTBEAT
                continue
            stats.frames += 1
            if json.loads(raw).get("type") == "turn":
                stats.turns.append(time.monotonic())


def turn_push_latencies(stats: TableStats, pushes: list[float]) -> list[float]:
    """Each "your turn" push's latency, from the table's last click sent before it arrived (the move that
    passed the turn, unless a stale click of the other player came between)."""
    latencies = []
    for when in pushes:
        i = bisect.bisect_left(stats.clicks, when)
        if i:
            latencies.append(when - stats.clicks[i - 1])
    return latencies


# -- the watchers' process ----------------------------------------------------------------------------
@dataclass
class Watching:
    url: str
    table_id: int
    cookie: str


def _watch(sockets: list[Watching], seconds: float, mode: str, ready: Any, go: Any, results: Any) -> None:
    """The watchers' process: connect every socket, say so, read states from ``go`` for ``seconds``."""
    stats = [WatcherStats() for _ in sockets]

    async def main() -> None:
        barrier = asyncio.Barrier(len(sockets) + 1)
        started = asyncio.Event()
        gate = asyncio.Semaphore(50)
        deadline = [0.0]
        tasks = [
            asyncio.ensure_future(watch(w.url, w.table_id, w.cookie, st, gate, barrier, started, deadline, mode))
            for w, st in zip(sockets, stats, strict=True)
        ]
        await asyncio.wait_for(barrier.wait(), timeout=300)
        ready.put("ready")
        await asyncio.to_thread(go.wait)
        deadline[0] = time.monotonic() + seconds
        gc.disable()  # as the players' process: a full collection would count as the server's latency
        started.set()
        await asyncio.gather(*tasks)

    try:
        asyncio.run(main())
        results.put([(st.seen, st.frames, st.bytes) for st in stats])
    except BaseException as error:
        results.put(error)
        raise


class WatchersProcess:
    """The watchers' sockets in a process of their own (forked: it needs none of Django)."""

    def __init__(self, sockets: list[Watching], seconds: float, mode: str) -> None:
        context = multiprocessing.get_context("fork")
        self.ready, self.results = context.Queue(), context.Queue()
        self.go = context.Event()
        self.process = context.Process(
            target=_watch, args=(sockets, seconds, mode, self.ready, self.go, self.results), daemon=True
        )
        self.process.start()

    def wait_ready(self) -> None:
        self.ready.get(timeout=300)

    def start(self) -> None:
        self.go.set()

    def collect(self) -> list[tuple[list[tuple[float, int]], int, int]]:
        got = self.results.get(timeout=120)
        self.process.join(timeout=30)
        if isinstance(got, BaseException):
            raise RuntimeError("the watchers' process failed") from got
        return got
