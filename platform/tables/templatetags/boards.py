"""Boards made in Python (``tables.boards``): a game's board template is only its tag."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables import boards

register = template.Library()


@register.simple_tag(takes_context=True)
def durak_board(context: Any) -> SafeString:
    return boards.durak_board(context.get("view") or {}, context.get("players"))


@register.filter
def called_again(bids: Any, index: int) -> bool:
    """Whether the seat of ``bids[index]`` (a Biznes auction's call) calls again later: a phone shows each
    player's latest call only."""
    try:
        seat = bids[index]["seat"]
        return any(later.get("seat") == seat for later in bids[index + 1 :])
    except (IndexError, KeyError, TypeError):
        return False
