"""Durak's board made in Python: ``tables/boards/durak.html`` is only its tag (``tables.templatetags.boards``).

A move's public board is drawn after every move, and Durak's template was half of what the process that made the
move spent drawing its public fragments (about 90 us of 190 in a shell), nearly all of it the template engine's
work per tag, filter and lookup. This gives what the template gave: each constant word translated and escaped as
``{% translate %}`` does, each sentence looked up and filled as ``{% blocktranslate %}`` does (its values
escaped, the message not), a missing entry of the view drawn as the empty text and read as None. The words are
looked up once per language, as ``core.templatetags.i18n_once`` looks up a template's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.template import TemplateSyntaxError
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext

from tables.templatetags.cards import card_in, kind_name, seat_name, suit


def _shown(value: Any) -> str:
    """A value as ``{{ value }}`` draws it (whole numbers need no localizing: ``tables.live._draw``)."""
    return str(conditional_escape(value if isinstance(value, str) else str(value)))


@functools.lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, str]:
    """The board's words in ``language`` (the active one): those drawn as they are, escaped; sentences unfilled."""
    # outside the f-strings below: xgettext does not look inside one, and makemessages would drop them
    no_trump, empty = pgettext("no trump", "none"), gettext("The table is empty.")
    return {
        "left": _shown(gettext("cards left to draw")),
        "stock": _shown(gettext("Stock")),
        "trump": _shown(gettext("Trump")),
        "no trump": f"<strong>{_shown(no_trump)}</strong>",
        "beaten": _shown(gettext("beaten cards")),
        "discard": _shown(pgettext("Durak's beaten cards", "Discard")),
        "over": _shown(gettext("The game is over.")),
        "takes": gettext("<strong>%(name)s</strong> takes — others may add cards"),
        "adds": gettext("%(name)s may add now"),
        "attacks": gettext("<strong>%(attacker)s</strong> attacks <strong>%(defender)s</strong>"),
        "throws": gettext("%(name)s may throw in"),
        "empty": f'<span class="empty-table">{_shown(empty)}</span>',
    }


@functools.lru_cache(maxsize=256)
def _trump(trump: str, language: str | None) -> str:
    return f'<strong class="trump">{suit(trump)} {_shown(kind_name(trump))}</strong>'


@functools.lru_cache(maxsize=256, typed=True)  # a count of 1 and 1.0 draw apart
def _limit(limit: Any, language: str | None) -> str:
    return ngettext("up to %(n)s card this bout", "up to %(n)s cards this bout", limit) % {"n": _shown(limit)}


def _name(players: Any, index: Any) -> str:
    return _shown(seat_name(players, index))


def _bout_who(view: dict[str, Any], players: Any, words: dict[str, str], language: str | None) -> str:
    if view.get("over"):
        return words["over"]
    throw_right = view.get("throw_right")
    if view.get("phase") == "taking":
        takes = words["takes"] % {"name": _name(players, view.get("defender"))}
        adds = "· " + words["adds"] % {"name": _name(players, throw_right)} if throw_right is not None else ""
        return f"\n    {takes}\n    {adds}\n    "
    attacker = view.get("attacker")
    defender = view.get("defender")
    attacks = words["attacks"] % {"attacker": _name(players, attacker), "defender": _name(players, defender)}
    throws = ""
    if throw_right is not None and throw_right != attacker:
        throws = "· " + words["throws"] % {"name": _name(players, throw_right)}
    limit = view.get("limit")
    if not isinstance(limit, (Decimal, float, int)):  # as ``{% blocktranslate count %}`` refuses it
        raise TemplateSyntaxError(f"{'n'!r} argument to {'blocktranslate'!r} tag must be a number.")
    return f'\n    {attacks}\n    {throws}\n    <span class="muted">· {_limit(limit, language)}</span>'


def _pair(attack: Any, cover: Any, language: str | None) -> str:
    if cover:
        covered = f'{card_in(attack, language)}<span class="cover">{card_in(cover, language)}</span>'
        return f'\n      <div class="pair covered">{covered}</div>\n    '
    return f'\n      <div class="pair">{card_in(attack, language)}</div>\n    '


def _entry(view: dict[str, Any], key: str) -> str:
    """An entry of the view as ``{{ view.key }}`` draws it: a missing one is the empty text."""
    return _shown(view[key]) if key in view else ""


def durak_board(view: dict[str, Any], players: Any, language: str | None = None) -> SafeString:
    """The board of Durak as ``tables/boards/durak.html`` drew it, between its first and last line breaks
    (``language``: the active one, when the caller has read it)."""
    language = language or get_language()
    words = _words(language)
    trump_card, trump, table = view.get("trump_card"), view.get("trump"), view.get("table")
    shown_card = f'<span class="trump-card">{card_in(trump_card, language)}</span>' if trump_card else ""
    pile = '<span class="pcard back stock-pile"></span>' if view.get("stock") else ""
    trump_html = _trump(trump, language) if trump else words["no trump"]
    pairs = "".join(_pair(p.get("attack"), p.get("cover"), language) for p in table) if table else words["empty"]
    return mark_safe(
        '<div class="felt durak">\n'
        '  <div class="deck-area">\n'
        f'    <div class="stock" title="{words["left"]}">\n'
        f"      {shown_card}\n"
        f"      {pile}\n"
        f'      <span class="pile-label">{words["stock"]} <strong>{_entry(view, "stock")}</strong></span>\n'
        "    </div>\n"
        f'    <div class="trump-info">{words["trump"]} {trump_html}</div>\n'
        f'    <div class="discard" title="{words["beaten"]}"><span class="pile-label">'
        f"{words['discard']} <strong>{_entry(view, 'discard')}</strong></span></div>\n"
        "  </div>\n"
        '  <p class="bout-who">\n'
        f"    {_bout_who(view, players, words, language)}\n"
        "  </p>\n"
        '  <div class="bout">\n'
        f"    {pairs}\n"
        "  </div>\n"
        "</div>"
    )


def _durak_template(context: dict[str, Any], language: str | None) -> str:
    """What ``tables/boards/durak.html`` draws: its tag between the line breaks after its load and after the tag."""
    return f"\n{durak_board(context.get('view') or {}, context.get('players'), language)}\n"


#: a game's board template that is only the tag of a board made here -> what drawing that template gives, from
#: the context it would be drawn from and the active language: a move's public board is drawn from it directly,
#: without the template engine's work around its one tag (``tables.live``)
MADE: dict[str, Callable[[dict[str, Any], str | None], str]] = {"tables/boards/durak.html": _durak_template}
