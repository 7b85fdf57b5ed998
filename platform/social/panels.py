"""Social's panels on other apps' pages (friend requests to a table's players, ``tables.parts``; the games
being played, on the Play page, ``lobbies.parts``), and the profile page's own registry, which the apps above
social fill."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from core.hooks import Registry
from core.panels import Panel
from social.games import live_games
from social.selectors import table_mates

#: a profile page's panels, under the player's name and facts (the page's context: ``player``, ``is_me``)
profile_side: Registry[Panel] = Registry("social.panels.profile_side")


def table_mates_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    # the other human players and where each stands with the reader
    user = request.user
    if not user.is_authenticated:
        return None
    mates = table_mates(user, [p["username"] for p in page["players"] if p["username"]])
    return {"table_mates": mates} if mates else None


def watch_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any]:
    # the games being played now, on the Play page (``lobbies.parts``)
    return {"live": live_games()}
