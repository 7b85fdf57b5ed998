"""A web process: daphne's own command line, on uvloop, each socket's frame sent as it is written.

``python -m core.daphne [daphne's options] config.asgi:application`` takes every
option of ``daphne``. Two things differ, both measured under the HTML load test
with 10 spectators on each of 50 tables (README, "Scaling"), where a web
process spends most of its event loop sending frames:

- the event loop is uvloop's (libuv, in C), which daphne's Twisted reactor runs
  on as on asyncio's own: the loop's turn and each socket's registration cost
  C instead of Python;
- Twisted buffers every write and sends it on the loop's next turn, after
  registering the socket for "writable" and before unregistering it: two
  ``epoll_ctl`` calls and a callback for each frame of each socket (about a
  fifth of a busy web process's loop). A write to a TCP connection with nothing
  waiting to be sent is handed to the kernel at once (``_write``); what the
  kernel does not take, and every write behind it, goes Twisted's own way, so
  the bytes keep their order and a slow reader's backlog is handled as before;
- autobahn formats the arguments of a debug line for every frame it sends,
  and for every read from a socket, logged or not, coloured through
  ``click.style`` when click is installed (as Celery installs it): 4-5% of that
  loop. The two formatters its WebSocket protocol and its Twisted adapter use,
  only in debug lines, give the plain text instead.

It must run before daphne's server module is imported: that import creates the
loop and installs the reactor on it.
"""

from __future__ import annotations

import asyncio

import autobahn.twisted.websocket
import autobahn.websocket.protocol
from twisted.internet import tcp

try:
    import uvloop
except ImportError:  # not built for every platform (Windows): asyncio's own loop then
    fast_loop: type[asyncio.AbstractEventLoopPolicy] | None = None
else:
    fast_loop = uvloop.EventLoopPolicy

_buffered = tcp.Connection.write


def _write(self: tcp.Connection, data: bytes) -> None:
    if (
        data
        and not self.TLS  # TLS frames its own records: Twisted's path
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnected
        and not self._tempDataBuffer
        and self.offset == len(self.dataBuffer)
    ):
        try:
            sent = self.socket.send(data)
        except OSError:  # the buffer full, or the connection going: Twisted's path sees to either
            sent = 0
        if sent == len(data):
            return
        data = data[sent:]
    _buffered(self, data)


def _plain(obj: object, *args: object, **kwargs: object) -> str:
    return getattr(obj, "__qualname__", None) or str(obj)


def install() -> None:
    if fast_loop is not None:
        asyncio.set_event_loop_policy(fast_loop())
    # replaced on purpose; the stubs type the originals (write on a base class, the formatters private)
    tcp.Connection.write = _write  # type: ignore[method-assign,assignment]
    for module in (autobahn.websocket.protocol, autobahn.twisted.websocket):
        module.hltype = module.hlval = _plain  # type: ignore[attr-defined]


if __name__ == "__main__":
    install()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()
