"""Cards and actions in words and symbols, for the table pages."""

from __future__ import annotations

import functools
import json
import re
import threading
from typing import Any

from cachetools import LRUCache
from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext

from games import get_game
from tables.labels import (
    KIND_TEXT,
    MOVED_BY,
    RANK_TEXT,
    READER,
    SUIT_SYMBOL,
    action_hint,
    action_label,
    card_text,
    card_title,
    said_text,
)

register = template.Library()
RED = {"D", "H"}
CARD_CODE = re.compile(r"\b([2-9TJQKA])([SCDH])\b")


@register.filter
def card(code: str | None) -> str:
    """A card face: rank and suit apart so CSS can lay it out like a real card; the code stays in data-card."""
    return card_in(code, get_language())


def card_in(code: str | None, language: str | None) -> str:
    """``card`` in ``language``, the active one, read by the caller once for all the cards it draws."""
    if not code:
        return ""
    # every hand, board and log draws the same 54 faces again on each move: each is drawn once per language
    return _card_face(str(code), language)


@functools.lru_cache(maxsize=1024)
def _card_face(code: str, language: str | None) -> str:
    if code.startswith("X"):
        return format_html(
            '<span class="pcard joker" data-card="{}" title="{}"><span class="rank">🃏</span></span>',
            code,
            gettext("joker"),
        )
    colour = "red" if code[-1] in RED else "black"
    return format_html(
        '<span class="pcard {}" data-card="{}" title="{}">'
        '<span class="rank">{}</span><span class="suit">{}</span></span>',
        colour,
        code,
        card_title(code),
        RANK_TEXT.get(code[0], code[0]),
        SUIT_SYMBOL.get(code[1], code[1]),
    )


@register.filter
def card_plain(code: str | None) -> str:
    """A card inline in text ("10♥"), coloured but without the card frame."""
    if not code:
        return ""
    colour = "red" if code[-1] in RED else "black"
    return format_html('<span class="cardtext {}" data-card="{}">{}</span>', colour, code, card_text(code))


@register.filter
def cardify(text: str | None) -> str:
    """Card codes inside a public move description ("plays 8H") shown as "8♥"; the rest escaped."""
    escaped = str(conditional_escape(text or ""))
    return mark_safe(CARD_CODE.sub(lambda m: str(card_plain(m.group(0))), escaped))


@register.filter
def backs(count: Any, limit: int = 8) -> str:
    """Face-down cards for a count: a small fan, capped so a 30-card hand stays one line."""
    try:
        count, limit = int(count), int(limit)
    except (TypeError, ValueError):
        return ""
    return _backs(count, limit, get_language())


def backs_in(count: int, language: str | None) -> str:
    """``backs`` of a whole number in ``language``, the active one, read by the caller (a move's seats' rows)."""
    return _backs(count, 8, language)


@functools.lru_cache(maxsize=1024)
def _backs(count: int, limit: int, language: str | None) -> str:
    shown = min(max(count, 0), int(limit))
    return format_html(
        '<span class="backs" title="{}">{}</span>',
        ngettext("%(n)s card", "%(n)s cards", count) % {"n": count},
        mark_safe('<span class="back"></span>' * shown),  # fixed markup, nothing from outside
    )


@register.filter
def suit(code: str | None) -> str:
    """A suit as its symbol, red or black."""
    if not code:
        return ""
    colour = "red" if code in RED else "black"
    name, symbol = KIND_TEXT.get(code, code), SUIT_SYMBOL.get(code, code)
    return format_html('<span class="suitsym {}" title="{}">{}</span>', colour, name, symbol)


@register.filter
def points(value: Any) -> str:
    """Biznes scores are whole or half points: 2.5 reads "2½", -0.5 reads "-½" (with a true minus sign)."""
    if value is None or value == "":
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    whole, half = divmod(round(abs(number) * 2), 2)
    text = (str(whole) if whole or not half else "") + ("½" if half else "")
    return ("\N{MINUS SIGN}" if number < 0 else "") + text


@register.filter
def label(action: dict[str, Any], game: str) -> str:
    return action_label(game, action)


@register.filter
def hint(action: dict[str, Any], game: str) -> str:
    """A short help for a legal action's button (``GameSpec.ui.hint``) in the reader's language; "" when none."""
    return action_hint(game, action)


#: where a seat's name goes in a move's words until its card codes are drawn (a name is never taken for a card)
SEAT_MARK = re.compile("\x00([0-9]+)\x00")


@register.filter
def move_words(move: Any, players: list[dict[str, Any]] | None = None) -> str:
    """A logged move in the reader's language, its card codes drawn as cards, a seat it names called by its
    player's name (from the page's ``players``); an old row's English text as is."""
    said = getattr(move, "words", None)
    if not said:
        return cardify(getattr(move, "text", ""))
    text = cardify(said_text(said, lambda index: f"\x00{index}\x00"))
    return mark_safe(SEAT_MARK.sub(lambda m: str(conditional_escape(seat_name(players, int(m.group(1))))), text))


@register.filter
def shortcut(action: dict[str, Any], game: str) -> str:
    """The letter key that clicks a legal action's button ("T" for Take), or ""."""
    key = get_game(game).ui.keys.get(str(action.get("type")))
    return key[0] if key else ""


@register.filter
def shortcuts(game: str) -> list[tuple[str, str]]:
    """The game's keyboard shortcuts for the help: (key, what it does) in the reader's language."""
    return [(key, said_text(words)) for key, words in get_game(game).ui.keys.values()]


@register.filter
def role_word(role: str, game: str) -> str:
    """A seat's role in the game (a Biznes thief) as its badge reads, in the reader's language."""
    try:
        ui = get_game(game).ui
    except (KeyError, ValueError):  # a fragment drawn without its table: the role as the view names it
        return str(role)
    return ui.role_word(str(role), READER)


@register.filter
def moved_by(by: str) -> str:
    """Who made a move for a seat (a bot, the turn timer), in words."""
    return str(MOVED_BY.get(by, by))


@register.filter
def as_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@register.filter
def at(sequence: Any, index: Any) -> Any:
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def face_down(total: Any, shown: Any) -> int:
    """How many of ``total`` cards (a widow) are still face down when the cards ``shown`` are face up."""
    try:
        return max(int(total) - len(shown or ()), 0)
    except (TypeError, ValueError):
        return 0


@register.filter
def kind_name(kind: str) -> str:
    return str(KIND_TEXT.get(kind, kind))


@register.filter
def seat_name(players: list[dict[str, Any]] | None, index: Any) -> str:
    """The display name of a seat index, from the page's ``players`` list."""
    for player in players or []:
        if player["index"] == index:
            if player.get("team") is not None:  # a partnership game: the name in its team's colour
                return format_html('<span class="team-name team-{}">{}</span>', player["team"], player["name"])
            return player["name"]
    return "" if index is None else gettext("seat %(n)s") % {"n": index + 1}


@register.filter
def to_play(players: list[dict[str, Any]] | None) -> str:
    """The names of the seats whose turn it is, each after a space (a waiting seat's play box): one filter, not a
    loop's turn and a branch per seat on every move."""
    return mark_safe("".join(f" {conditional_escape(p.get('name', ''))}" for p in players or () if p.get("turn")))


@register.filter
def bot_to_act(players: list[dict[str, Any]]) -> bool:
    """A bot plays the turn (a bot seat, or one whose player is away): its clock is only a safety net, not shown."""
    return any(p.get("turn") and (p.get("is_bot") or p.get("away")) for p in players or [])


#: logged moves' lines as drawn: a row never changes once written, so each is drawn once per language and
#: seat name, not on every move of the game (the log is the largest fragment sent after a move)
_LINES: LRUCache[tuple[Any, ...], str] = LRUCache(maxsize=20_000)
_LINES_LOCK = threading.Lock()  # page views draw on threads, sockets on the event loop


@register.simple_tag
def log_line(move: Any, players: list[dict[str, Any]], language: str | None = None) -> str:
    """One line of the move log (``language``: the active one, when the caller has read it)."""
    name = seat_name(players, move.seat)
    # created_at tells apart rows that share a game id and number (a database emptied and filled again);
    # a move's words may name any seat, so every seat's name is part of the key
    names = tuple(str(p.get("name")) for p in players or ())
    key = (move.game_id, move.number, move.created_at, move.by, language or get_language(), str(name), names)
    with _LINES_LOCK:
        line = _LINES.get(key)
    if line is None:
        line = _line_html(move, name, players)
        with _LINES_LOCK:
            _LINES[key] = line
    return mark_safe(line)


def _line_html(move: Any, name: str, players: list[dict[str, Any]]) -> str:
    """A logged move's line: made here, not by a template, as each move's line is drawn once when it is new and a
    template's per-node work was most of that (the log's new lines were a tenth of a move's drawing)."""
    by = move.by
    who = format_html(' <span class="muted">({})</span>', moved_by(by)) if by != "player" else ""
    words = move_words(move, players)
    return format_html('<li value="{}" data-by="{}"><strong>{}</strong> {}{}</li>', move.number, by, name, words, who)
