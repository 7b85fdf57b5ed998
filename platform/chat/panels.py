"""The chat's panels on the table page and under a finished game's replay (``tables.parts``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from chat.selectors import game_chat, table_chat


def table_chat_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any]:
    return {"chat": table_chat(page["table"], request.user, page["seat"] is not None)}


def replay_chat_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    # the players' chat of a finished game is shown to its players only
    return {"chat_lines": game_chat(page["game"], request.user)} if page["seated"] else None
