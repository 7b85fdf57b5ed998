"""What the apps above tables add to its pages and its socket, each in its own ``ready()``.

The table page's side column (the chat, friend requests to the table's players, the report form), the replay's
(the players' chat of a finished game) and the table socket's other frames (``"type": "chat"``) belong to the
apps that own them; tables draws and routes whatever is registered here and imports none of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.hooks import Registry
from core.panels import Panel

#: the table page's side column, below the log and the score sheet; the page's context includes ``table``,
#: ``seat`` (the reader's seat index or None) and ``players`` (each seat's ``username``, ``name``, ``is_bot``)
table_side: Registry[Panel] = Registry("tables.parts.table_side")
#: below a finished game's replay; the page's context includes ``game`` and ``seated`` (the reader played it)
replay_side: Registry[Panel] = Registry("tables.parts.replay_side")

SocketHandler = Callable[[Any], Awaitable[None]]
FrameHandler = Callable[[Any, dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class SocketPart:
    """Another app's share of the table socket: frames of ``frame_type`` go to ``receive``, the channel layer's
    events named in ``events`` (``"chat.line"``) to their handler; ``join`` and ``leave`` run as the socket opens
    and closes. Each gets the table's consumer (``table_id``, ``user``, ``json_mode``, ``send``, ``send_error``)."""

    frame_type: str
    join: SocketHandler
    leave: SocketHandler
    receive: FrameHandler
    events: Mapping[str, FrameHandler] = field(default_factory=dict)


socket_parts: Registry[SocketPart] = Registry("tables.parts.socket_parts")


def socket_part_for_frame(frame_type: object) -> SocketPart | None:
    for part in socket_parts:
        if part.frame_type == frame_type:
            return part
    return None


def socket_event_handler(event_type: str) -> FrameHandler | None:
    for part in socket_parts:
        handler = part.events.get(event_type)
        if handler is not None:
            return handler
    return None
