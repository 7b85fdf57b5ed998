"""The load test's measure of a move reaching every socket, put together from two processes' receipts."""

from urllib.parse import urlsplit

from django.urls.resolvers import RegexPattern, URLResolver

from tables.management.loadclient import (
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


def test_players_both_seats_first():
    st = TableStats()
    st.sending(3)
    st.received(3)
    assert st.done == []
    st.received(3)
    assert [move for move, _, _ in st.done] == [3] and st.seat_latencies


def test_a_turn_push_is_timed_from_the_last_click_before_it():
    st = TableStats()
    st.clicks.extend([10.0, 11.0, 11.5])
    # the push after the click at 11.0 arrived before the one at 11.5 was sent; one came before any click
    assert [round(x, 3) for x in turn_push_latencies(st, [9.0, 11.02, 11.56])] == [0.02, 0.06]


def test_every_click_is_kept_for_the_pushes():
    st = TableStats()
    st.sending(3)
    st.sending(4)
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
