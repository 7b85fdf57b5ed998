"""The report form, on the pages where a player meets others: a table, a profile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from moderation.models import Report


def table_report_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    if not request.user.is_authenticated:
        return None
    return {
        "report_players": page["players"],
        "report_table": page["table"].pk,
        "report_reasons": Report.Reason.choices,
    }


def profile_report_panel(request: HttpRequest, page: Mapping[str, Any]) -> dict[str, Any] | None:
    player = page["player"]
    if not request.user.is_authenticated or page["is_me"] or player.is_bot:
        return None
    return {
        "report_players": [{"username": player.username, "name": player.name, "is_bot": player.is_bot}],
        "report_reasons": Report.Reason.choices,
    }
