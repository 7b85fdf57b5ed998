"""The sockets' shared per-move rendering (tables.live): the same HTML a seat always got, no card it may not
see, and only the fragments that changed."""

import asyncio
import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import get_language

from games import GAMES
from tables import live, relay
from tables.models import Game
from tables.rendering import render_table
from tables.selectors import LOG_LENGTH, seat_view, snapshot_from_delta, socket_state, table_snapshot
from tables.services import table_apply_action
from tests.platform.tables.factories import started_table
from tests.platform.tables.test_consumer import CARD, connect, hidden_from

SEATS = {"durak": 3, "biznes": 4, "verish": 3}
FRAGMENT = re.compile(r'^<(?:div|section|ul) id="(table-[a-z]+)"', re.M)


def play(game: Game, rng: random.Random, moves: int) -> Game:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        seat = seat_view(game, None)["view"]["to_act"][0]
        table_apply_action(game.pk, seat, game.move_number, rng.choice(seat_view(game, seat)["legal"]))
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru", "uk"])
@pytest.mark.parametrize("name", list(GAMES))
def test_shared_fragments_are_the_html_each_seat_got_before(name, language):
    """Public fragments rendered once from the spectator's context equal each seat's own rendering, in every
    language (they are drawn without localizing numbers: the page draws them with it)."""
    table, players, game = started_table(name, SEATS[name])
    rng = random.Random(7)
    for _ in range(6):
        with translation.override(language):
            snap = live.Snapshot(table_snapshot(table.pk))
            for seat, user in [*enumerate(players), (None, None)]:
                # the spectator's fragments are made first once, the seats' first the next time round
                new = "\n".join(html for _, html in snap.fragments(seat))
                old = render_table(socket_state(table.pk, user))
                assert new.strip() == old.strip(), f"{name}, seat {seat}, move {game.move_number}, {language}"
        game = play(game, rng, 7)


class Events:
    """The deltas the move service sends after commit (what each web process would receive)."""

    def __init__(self, monkeypatch):
        self.deltas: list[str | None] = []
        monkeypatch.setattr("tables.services.notify", self.notify)

    def notify(self, table_id, game_id, move=0, delta=None):
        self.deltas.append(delta)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_snapshot_built_from_move_events_shows_what_a_full_read_shows(name, monkeypatch):
    """The delta path never queries and shows each seat exactly what a full read shows, hidden cards included."""
    events = Events(monkeypatch)
    table, players, game = started_table(name, SEATS[name])
    rng = random.Random(11)
    snap = live.Snapshot(table_snapshot(table.pk))
    for seat in [*range(len(players)), None]:
        snap.fragments(seat)  # the steady fragments a process has drawn before the move
    built = 0
    for _ in range(60):
        events.deltas.clear()
        game = play(game, rng, 1)
        game.refresh_from_db()
        (delta,) = events.deltas
        if game.status != Game.Status.PLAYING:
            assert delta is None  # a finished game is read in full
            break
        full = live.Snapshot(table_snapshot(table.pk))
        if delta is None:  # a seat changed (none here: nobody times out)
            snap = full
            continue
        hidden = {seat: hidden_from(game, seat) for seat in [*range(len(players)), None]}
        with CaptureQueriesContext(connection) as queries:
            moved = snapshot_from_delta(snap.data, delta)
            assert moved is not None and moved.key == full.key
            after = snap.follow(moved)
            for seat in hidden:
                assert after.fragments(seat) == full.fragments(seat), f"{name}, seat {seat}, move {game.move_number}"
                # equal as JSON: PostgreSQL's jsonb returns an object's keys in its own order
                assert json.loads(after.json(seat)) == json.loads(full.json(seat))
                assert not set(CARD.findall(after.json(seat))) & hidden[seat]
        assert not queries.captured_queries
        assert snapshot_from_delta(snap.data, delta) is not None
        assert snapshot_from_delta(after.data, delta) is None  # a delta that does not follow on is refused
        snap, built = after, built + 1
    assert built >= 5


async def frames_until_move(comm, move: int) -> list[str]:
    frames = []
    while True:
        frame = await comm.receive_from(timeout=10)
        frames.append(frame)
        found = re.search(r'id="table-status"[^>]*data-move="(\d+)"', frame)
        if found and int(found.group(1)) >= move:
            return frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["biznes", "durak"])
async def test_no_seat_or_spectator_socket_ever_gets_a_hidden_card(name):
    """Many moves through the sockets: each frame of a seat and of a spectator holds no card hidden from it."""
    table, players, game = await sync_to_async(started_table)(name, SEATS[name])
    spectators = [await connect(table, None) for _ in range(2)]
    seats = [await connect(table, u) for u in players]
    socks = [(seat, comm) for seat, (comm, _) in enumerate(seats)] + [(None, comm) for comm, _ in spectators]
    first = {}
    for seat, comm in socks:
        first[id(comm)] = await comm.receive_from(timeout=10)
        assert not set(CARD.findall(first[id(comm)])) & await sync_to_async(hidden_from)(game, seat)
    rng = random.Random(3)
    for _ in range(30):
        game = await sync_to_async(Game.objects.select_related("table").get)(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        mover = (await sync_to_async(seat_view)(game, None))["view"]["to_act"][0]
        action = rng.choice((await sync_to_async(seat_view)(game, mover))["legal"])
        # through the service, not the mover's socket: a socket's rate limit would refuse a bot's pace
        await sync_to_async(table_apply_action)(game.pk, mover, game.move_number, action)
        got = {
            id(comm): await frames_until_move(comm, game.move_number + 1) for _, comm in rng.sample(socks, len(socks))
        }
        after = await sync_to_async(Game.objects.select_related("table").get)(pk=game.pk)
        for seat, comm in socks:
            hidden = await sync_to_async(hidden_from)(after, seat)
            for frame in got[id(comm)]:
                leaked = set(CARD.findall(frame)) & hidden
                assert not leaked, f"{'spectator' if seat is None else f'seat {seat}'} saw {leaked}"
                # only what changed: the sheet box (same game, same sheet) is not sent again
                assert 'id="table-sheet"' not in frame
    for _, comm in socks:
        await comm.disconnect()
    assert not live._TABLES  # the last socket gone, this process forgets the table


LOG_LIST = re.compile(r'(<ol id="table-log-lines"[^>]*>)(.*?)(</ol>)', re.S)
LINE = re.compile(r"<li .*?</li>", re.S)


def with_tail(full: str, tail: str, keep: int) -> str:
    """What a browser's log holds after htmx inserts ``tail`` at the top of the list and table.js trims it."""
    head, lines, end = LOG_LIST.search(full).groups()
    new = LINE.findall(LOG_LIST.search(tail).group(2)) + LINE.findall(lines)
    return full.replace(head + lines + end, head + "".join(new[:keep]) + end)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["durak", "verish"])
def test_a_socket_gets_only_the_new_log_lines_and_ends_up_with_the_whole_log(name, monkeypatch):
    events = Events(monkeypatch)
    table, _players, game = started_table(name, SEATS[name])
    rng = random.Random(5)
    game = play(game, rng, 2)
    snap = live.Snapshot(table_snapshot(table.pk))
    shown = dict(snap.fragments(None))["table-log"]
    mark = snap.log_mark
    tails = 0
    for steps in [1, 1, 2, 1, 35, 1]:  # one move, two missed events, more than the log holds
        events.deltas.clear()
        game = play(game, rng, steps)
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        moved = None
        for delta in events.deltas if len(events.deltas) == 1 else []:
            moved = snapshot_from_delta(snap.data, delta) if delta else None
        snap = snap.follow(moved) if moved else live.Snapshot(table_snapshot(table.pk))
        full = dict(snap.fragments(None))["table-log"]
        tail = snap.log_tail(mark, get_language())
        if tail is None:  # a full read (a new lineage) or a gap: the whole log is sent
            assert moved is None or steps > 1
        else:
            assert 'hx-swap-oob="afterbegin"' in tail and len(LINE.findall(tail)) == steps
            assert with_tail(shown, tail, LOG_LENGTH) == full
            tails += 1
        shown, mark = full, snap.log_mark
    assert tails >= 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_process_takes_the_public_fragments_the_move_event_carries(name, monkeypatch):
    """The process whose socket made a move draws the public fragments for its event; another process building
    the move from the delta takes them, draws only its seats' own, and shows each seat what a full read shows."""
    events = Events(monkeypatch)
    table, players, game = started_table(name, SEATS[name])
    group = relay.group_name(table.pk)
    rng = random.Random(13)
    drawn: list[str] = []
    draw = live._draw
    monkeypatch.setattr(live, "_draw", lambda t, c: drawn.append(t) or draw(t, c))
    line = live.log_line
    monkeypatch.setattr(live, "log_line", lambda m, *rest: drawn.append(f"line {m.number}") or line(m, *rest))
    monkeypatch.setattr(live, "_TABLES", {})
    carried = 0
    for _ in range(12):
        before = table_snapshot(table.pk)
        events.deltas.clear()
        game = play(game, rng, 1)
        game.refresh_from_db()
        (delta,) = events.deltas
        if delta is None:
            break
        event = {"type": "table.changed", "game": game.pk, "move": game.move_number, "delta": delta}
        live._TABLES[table.pk] = live._Table(snapshot=live.Snapshot(before))  # the mover's process
        live.prepare_move_event(group, event)
        assert set(event["public"]["html"]) == live.CARRIED
        carried += 1
        event = json.loads(json.dumps(event))  # as the channel layer brings it
        other = live._Table(snapshot=live.Snapshot(before))  # another process, one move behind
        mark = other.snapshot.log_mark
        live._TABLES[table.pk] = other
        drawn.clear()
        got = asyncio.run(live.snapshot(table.pk, (game.pk, game.move_number), delta=delta, drawn=event["public"]))
        seats = [*range(len(players)), None]
        shown = {seat: got.fragments(seat, log=False) for seat in seats}
        tail = got.log_tail(mark, get_language())
        public = {template for fid, template, shared in live.FRAGMENTS if shared}
        assert not public & set(drawn), drawn  # the carried fragments were not drawn again
        assert not [d for d in drawn if d.startswith("line ")]  # nor the log's new lines
        full = live.Snapshot(table_snapshot(table.pk))
        for seat in seats:
            assert shown[seat] == full.fragments(seat, log=False), f"{name}, seat {seat}"
        own = live.Snapshot(before).follow(snapshot_from_delta(before, delta))
        assert tail == own.log_tail(own.log_mark[:1] + mark[1:], get_language())
    assert carried >= 5
