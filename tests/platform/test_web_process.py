"""The web process's socket writes (``core.daphne``): sent at once when nothing waits, else Twisted's way, in order."""

import socket

import pytest
from twisted.internet import tcp
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactor

from core import daphne


@pytest.fixture
def connection():
    """Twisted's own TCP connection on one end of a real socket pair, writes as the web process makes them."""
    ours, peer = socket.socketpair()
    reactor = MemoryReactor()
    conn = tcp.Connection(ours, Protocol(), reactor)
    conn.connected = 1
    try:
        yield conn, peer, reactor
    finally:
        ours.close()
        peer.close()


def read_all(peer: socket.socket, size: int, conn: tcp.Connection, reactor: MemoryReactor) -> bytes:
    """What the peer gets, the reactor's turns run as a loop would while the socket is registered."""
    got = bytearray()
    peer.settimeout(5)
    while len(got) < size:
        if conn in reactor.getWriters():
            conn.doWrite()
        got += peer.recv(1 << 20)
    return bytes(got)


def test_a_frame_goes_to_the_kernel_at_once(connection):
    conn, peer, reactor = connection
    daphne._write(conn, b"frame")
    assert peer.recv(100) == b"frame"
    assert conn not in reactor.getWriters()  # no registration, no callback on the next turn


def test_what_the_kernel_does_not_take_is_sent_after_in_order(connection):
    conn, peer, reactor = connection
    big = bytes(range(256)) * (64 * 1024)  # 16 MiB: more than a socket's buffer
    daphne._write(conn, big)
    assert conn in reactor.getWriters()  # the rest waits for the socket to be writable
    daphne._write(conn, b"after")  # behind the backlog, never before it
    assert read_all(peer, len(big) + 5, conn, reactor) == big + b"after"
    assert conn not in reactor.getWriters()


def test_a_closing_connection_is_left_to_twisted(connection):
    conn, peer, reactor = connection
    conn.disconnecting = True
    daphne._write(conn, b"late")
    assert conn in reactor.getWriters()
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)


def test_make_run_starts_its_web_processes_through_it(settings):
    from core.launcher import Launcher

    launched = {}
    launcher = Launcher("127.0.0.1", 8999, web=2)
    launcher.spawn = lambda name, args: launched.setdefault(name, args)
    settings.REDIS_EMBEDDED = False
    launcher.start()
    assert launched["daphne"][1:3] == ["-m", "core.daphne"] and launched["daphne-2"][1:3] == ["-m", "core.daphne"]
