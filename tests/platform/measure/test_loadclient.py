"""The load test's measure of a move reaching every socket, put together from two processes' receipts."""

import json
import random
from urllib.parse import urlsplit

from django.urls.resolvers import RegexPattern, URLResolver

from measure.loadclient import (
    PlayerPage,
    TableStats,
    WatcherStats,
    every_socket_latencies,
    table_ws_url,
    turn_push_latencies,
)
from tables.routing import websocket_urlpatterns


def stats(*done: tuple[int, float, float]) -> TableStats:
    st = TableStats()
    st.done.extend(done)
    return st


def test_a_move_reaches_every_socket_when_the_last_watcher_holds_it():
    st = stats((5, 10.0, 10.010))
    watchers = [[(9.0, 4), (10.020, 5)], [(10.030, 5)]]
    assert [round(x, 3) for x in every_socket_latencies(st, watchers)] == [0.03]


def test_a_watcher_sent_a_later_state_holds_the_move():
    # his process already held move 6 when it served move 5's event: the page shows the table as it is
    st = stats((5, 10.0, 10.010))
    assert [round(x, 3) for x in every_socket_latencies(st, [[(10.040, 6)]])] == [0.04]


def test_a_state_received_before_the_move_was_sent_does_not_count():
    st = stats((5, 10.0, 10.010))
    assert every_socket_latencies(st, [[(9.5, 5)]]) == []


def test_a_move_a_watcher_never_got_is_left_out():
    # a new game began (its move 1) before he was sent move 5 of the last one
    st = stats((5, 10.0, 10.010), (2, 11.0, 11.01))
    latencies = every_socket_latencies(st, [[(9.0, 4), (10.5, 1), (11.02, 2), (11.5, 7)]])
    assert [round(x, 3) for x in latencies] == [0.02]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def timed() -> tuple[TableStats, Clock]:
    clock = Clock()
    return TableStats(clock=clock), clock


def test_players_both_seats_first():
    st, clock = timed()
    st.sending(3, seat=0)
    clock.now += 0.010
    st.received(3)
    assert st.done == []
    clock.now += 0.005
    st.received(3)
    assert st.done == [(3, 100.0, 100.015)]


def test_a_move_both_players_clicked_for_is_timed_from_the_first_click():
    # the other player clicked on the same state after one seat already held the move: his click is refused,
    # and the move still counts once his page holds it too
    st, clock = timed()
    st.sending(8, seat=0)
    clock.now += 0.020
    st.received(8)
    clock.now += 0.001
    st.sending(8, seat=1)
    clock.now += 0.030
    st.received(8)
    st.refusal(8, seat=1)
    assert [round(x, 3) for x in st.seat_latencies] == [0.051]


def test_a_refused_click_is_not_the_move():
    # a card the rules refused, then another click of the same form: the move is that one's
    st, clock = timed()
    st.sending(4, seat=1)
    clock.now += 0.010
    st.refusal(4, seat=1)
    st.sending(4, seat=1)
    clock.now += 0.012
    st.received(4)
    st.received(4)
    assert [round(x, 3) for x in st.seat_latencies] == [0.012]
    assert len(st.clicks) == 2  # both clicks, for the "your turn" pushes


def test_a_move_no_standing_click_made_is_not_timed():
    st, _ = timed()
    st.sending(6, seat=0)
    st.refusal(6, seat=0)
    st.received(6)
    st.received(6)
    assert st.done == [] and st.sent == {}


def test_a_page_shows_the_clicks_of_its_last_state():
    page = PlayerPage("json", random.Random(1))
    assert page.read(json.dumps({"type": "state", "move": 3, "seat": 1, "view": {"to_act": [0]}})) == (3, None)
    assert page.clicks == []
    legal = [{"type": "take"}, {"type": "pass"}]
    state = {"type": "state", "move": 4, "seat": 1, "view": {"to_act": [1]}, "legal": legal}
    assert page.read(json.dumps(state)) == (4, None)
    assert sorted(c["action"]["type"] for c in page.clicks) == ["pass", "take"]
    assert {c["move"] for c in page.clicks} == {4} and page.states == 2
    assert page.read(json.dumps({"type": "error", "code": "stale", "message": "x"})) == (None, "stale")
    assert page.read(json.dumps({"type": "chat", "text": "hi"})) == (None, None) and page.states == 2
    html_page = PlayerPage("html", random.Random(1))
    assert html_page.read('<div id="table-error" class="table-error" role="alert">Not your turn</div>') == (
        None,
        "Not your turn",
    )
    assert html_page.read('<div id="table-error" class="table-error" role="alert"></div>') == (None, None)


def test_a_turn_push_is_timed_from_the_last_click_before_it():
    st = TableStats()
    st.clicks.extend([10.0, 11.0, 11.5])
    # the push after the click at 11.0 arrived before the one at 11.5 was sent; one came before any click
    assert [round(x, 3) for x in turn_push_latencies(st, [9.0, 11.02, 11.56])] == [0.02, 0.06]


def test_every_click_is_kept_for_the_pushes():
    st = TableStats()
    st.sending(3, seat=0)
    st.sending(4, seat=1)
    assert len(st.clicks) == 2 and st.clicks[0] <= st.clicks[1]


def test_a_watcher_reads_the_move_of_each_state_he_is_sent():
    st = WatcherStats()
    st.read('<div id="table-status" class="x" data-move="7">…</div>\n<div id="table-seats">', "html")
    st.read('<div id="table-error" class="table-error" role="alert">Slow down</div>', "html")
    st.read(b'<div id="table-status" data-move="8"></div>', "html")
    st.read('{"type": "state", "move": 9, "view": {}}', "json")
    st.read('{"type": "chat", "text": "hi"}', "json")
    assert [move for _, move in st.seen] == [7, 8, 9]
    assert st.frames == 5 and st.bytes > 0
    assert [when for when, _ in st.seen] == sorted(when for when, _ in st.seen)


def test_the_table_socket_opened_is_the_one_the_server_routes():
    resolver = URLResolver(RegexPattern(r"^/"), websocket_urlpatterns)
    for mode, query in (("html", ""), ("json", "format=json")):
        url = urlsplit(table_ws_url("https://cards.example:8443", 42, mode))
        assert (url.scheme, url.netloc, url.query) == ("wss", "cards.example:8443", query)
        assert resolver.resolve(url.path).kwargs == {"table_id": 42}
