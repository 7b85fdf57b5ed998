"""HTML fragments for the table page and its socket; each one built from one seat's own state.

The socket sends ``render_table``'s output after every change: top-level
elements with ids that htmx's WebSocket extension swaps in place.
"""

from __future__ import annotations

import functools
from typing import Any

from django.template.defaultfilters import striptags
from django.template.loader import render_to_string
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from games import get_game
from tables.labels import action_hint, action_label
from tables.templatetags.cards import as_json, card_plain, cardify, kind_name, suit, to_play
from tables.templatetags.cards import card as face

KINDS = {"rank": "23456789TJQKA", "suit": "SCDH"}
#: the most card combinations a page is sent to narrow the hand with (a Biznes discard of 4 from 12 has 495:
#: the page then leaves the hand whole, and the button's count says how many to tick)
MAX_COMBINATIONS = 200


def playable_cards(legal: list[dict[str, Any]]) -> set[str]:
    """The cards of the hand some legal action plays now; the others are drawn dimmed."""
    out: set[str] = set()
    for action in legal:
        if action.get("card"):
            out.add(action["card"])
        out.update(action.get("cards") or ())
    return out


def combinations_to_narrow(ui: Any, legal: list[dict[str, Any]]) -> list[list[str]] | None:
    """Every legal combination of two or more cards of the composed types whose engine lists them all, so a
    ticked card narrows the hand to those that can join it ([]: no card joins another); None when the game's
    engine does not list them all, or there are too many to send."""
    if not any(a["type"] in ui.every_combination for a in legal):
        return None
    out = [list(a["cards"]) for a in legal if a["type"] in ui.every_combination and len(a.get("cards") or ()) > 1]
    return out if len(out) <= MAX_COMBINATIONS else None


def play_controls(
    game: str, legal: list[dict[str, Any]], view: dict[str, Any], language: str | None = None
) -> dict[str, Any]:
    """Group the legal actions into what the page offers: buttons, card pickers, and clickable cards.

    A card with exactly one legal one-card action (a Biznes play, a Durak cover
    with one possible target) becomes a button in the hand ("quick"); a card with
    several (cover this or that, or transfer) keeps explicit buttons. Which actions
    are composed from ticked cards and which are quick comes from the game's
    ``ui``. Bids are grouped by number of tricks so 30 bids fit on a phone. ``language``: the active one, when the
    caller has read it already (asgiref's context-local lookup is not free).
    """
    ui = get_game(game).ui
    composed: list[dict[str, Any]] = []
    seen: set[str] = set()
    buttons: list[dict[str, Any]] = []
    bids: dict[int, list[dict[str, Any]]] = {}
    jokers: dict[str, list[str]] = {}
    kinds: list[str] = []
    announced: set[str] = set()
    per_card: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        kind = action["type"]
        if kind in ui.composed:
            if kind not in seen:
                seen.add(kind)
                composed.append({"type": kind})
            # an action announced as a kind (a claim's "kings") gets a kind picker beside its button
            if (announced_kind := action.get("kind")) is not None and announced_kind not in kinds:
                kinds.append(announced_kind)
                announced.add(kind)
        elif kind == "play" and action.get("as"):
            jokers.setdefault(action["card"], []).append(action["as"])
        else:
            if kind in ui.quick and action.get("card"):
                per_card.setdefault(action["card"], []).append(action)
            if kind == "bid":
                bids.setdefault(action["tricks"], []).append(action)
            else:
                buttons.append(action)
    if kinds:  # the kinds a composed action may be announced as, in the deck's order
        order = KINDS.get((view.get("options") or {}).get("kind", "rank"), "")
        kinds = sorted(kinds, key=lambda k: order.index(k) if k in order else 99)
    # ticking cards and clicking them to play cannot share the hand: picking wins
    quick = {} if composed else {c: acts[0] for c, acts in per_card.items() if len(acts) == 1 and c not in jokers}
    # a quick card is the button for a play; a cover keeps its worded button too
    buttons = [a for a in buttons if not (a["type"] == "play" and a.get("card") in quick)]
    playable = playable_cards(legal)
    if language is None:
        language = get_language()  # looked up once for the hand
    hand = (
        _hand_card(game, c, quick.get(c), bool(legal) and c not in playable, bool(composed), language)
        for c in view.get("hand") or ()
    )
    return {
        # each card of the hand and each button with what the page shows of it, made here once and joined as the
        # play box lays them out: drawn after every move, a template's lookups and filters per card were most of
        # the seat's own fragment ("" for an empty hand); each card and button is escaped by format_html, and the
        # joined text is what mark_safe makes of a str, without its wrapper's look for lazy arguments
        "hand_html": SafeString("".join(hand)),
        "actions_html": SafeString(
            "".join(f"\n            {_button(game, ui, a, language)}\n          " for a in buttons)
        ),
        "composed": composed,
        "bids": sorted(bids.items()),
        "claim_kinds": kinds,
        #: composed action types announced as a kind: they get the kind picker
        "announced": sorted(announced),
        "jokers": sorted(jokers.items()),
        "pick": bool(composed),
        "quick": quick,
        "discard_count": next((len(a["cards"]) for a in legal if a["type"] == "discard"), 0),
        "combinations": combinations_to_narrow(ui, legal),
    }


#: a button or a card to tap by its game, its action as JSON and the reader's language: what it shows is made
#: from these alone (the game's words for the action, translated), and the same few come back move after move for
#: every seat, so their words are looked up only the first time (most of a seat's buttons' work)
_MADE: dict[tuple[Any, ...], SafeString] = {}
MADE_MAX = 8192


def _made_key(action: dict[str, Any]) -> tuple[Any, ...] | str:
    """What tells an action's button or card to tap apart from any other's: its items when every value is a string
    (equal strings, equal JSON: in that order they are what its JSON says), else its JSON. Writing the JSON of every
    button and card to tap after every move only to look it up was a third of a seat's controls."""
    values = action.values()
    return tuple(action.items()) if all(type(v) is str for v in values) else as_json(action)


def _keep(key: tuple[Any, ...], html: SafeString) -> SafeString:
    if len(_MADE) >= MADE_MAX:
        _MADE.clear()
    _MADE[key] = html
    return html


def _hand_card(
    game: str, card: str, quick: dict[str, Any] | None, unplayable: bool, pick: bool, language: str | None
) -> SafeString:
    if quick is None:
        return _hand_card_html(card, None, None, unplayable, pick, language)
    key = (game, _made_key(quick), language, card, unplayable, pick)
    html = _MADE.get(key)
    if html is None:
        html = _hand_card_html(card, as_json(quick), action_label(game, quick), unplayable, pick, language)
        _keep(key, html)
    return html


@functools.lru_cache(maxsize=4096)
def _hand_card_html(
    code: str, quick: str | None, title: str | None, unplayable: bool, pick: bool, language: str | None
) -> SafeString:
    """One card of the hand as ``_play.html`` lays it out (a box to tick, a card to tap, or a card that stays),
    with the spacing around it: the same few cards are drawn again after every move, so each is drawn once
    per language (its face's words)."""
    dim = mark_safe(" unplayable") if unplayable else ""
    # the spacing around each card is the loop's in _play.html before the cards were drawn here
    if pick:
        note = mark_safe(' aria-describedby="unplayable-note"') if unplayable else ""
        html = format_html(
            '<label class="pick{}"><input type="checkbox" name="cards" value="{}"{}>{}</label>',
            dim,
            code,
            note,
            face(code),
        )
        spaced = f"\n          \n            {html}\n          \n        "
    elif quick:
        html = format_html(
            '<button type="button" class="quick" ws-send name="action" value="{}" title="{}">{}</button>',
            quick,
            title,
            face(code),
        )
        spaced = f"\n          {html}\n          \n        "
    else:
        html = format_html('<span class="still{}">{}</span>', dim, face(code))
        spaced = f"\n          {html}\n        "
    return mark_safe(spaced)  # every part escaped by format_html above


def _button(game: str, ui: Any, action: dict[str, Any], language: str | None) -> SafeString:
    made = (game, _made_key(action), language)
    html = _MADE.get(made)
    if html is None:
        key = ui.keys.get(str(action.get("type")))
        label, hint = action_label(game, action), action_hint(game, action)
        html = _keep(made, _button_html(action["type"], as_json(action), label, hint, key[0] if key else ""))
    return html


def _button_html(type: str, json: str, label: str, hint: str, key: str) -> SafeString:
    """An action's button as _play.html laid it out (its shortcut key, its hint beside it): made here, a
    template's branches per button were most of a seat's buttons' work."""
    shortcut = format_html(' data-key="{}" aria-keyshortcuts="{}"', key, key) if key else ""
    kbd = format_html(' <kbd aria-hidden="true">{}</kbd>', key) if key else ""
    html = format_html(
        '<button type="button" class="act act-{}" ws-send name="action" value="{}"{}>{}{}</button>',
        type,
        json,
        shortcut,
        label,
        kbd,
    )
    if hint:
        html = format_html('<span class="hinted">{}<small class="act-hint">{}</small></span>', html, hint)
    return html


@functools.lru_cache(maxsize=16)
def _play_words(language: str | None) -> dict[str, str]:
    """The play box's fixed words in ``language``, escaped as ``{% translate %}`` leaves them, looked up once per
    language (``language`` is the key: gettext reads the active one)."""
    return {
        "hand": conditional_escape(gettext("Your hand")),
        "tick": conditional_escape(gettext("Tick cards, then choose below.")),
        "tap": conditional_escape(gettext("Tap a raised card to play it.")),
        "empty": conditional_escape(gettext("No cards in hand.")),
        "unplayable": conditional_escape(gettext("No legal move plays this card now.")),
        "announce": conditional_escape(gettext("announce as")),
        "joker": conditional_escape(gettext("the joker becomes")),
        # a message with a value put in is not escaped, as ``{% blocktranslate %}`` leaves it: only the value is
        "play": gettext("Play %(card)s"),
        "bid": gettext("bid %(bid)s"),
        "away": conditional_escape(gettext("A bot plays your seat: no moves until you are back.")),
        "waiting": conditional_escape(gettext("Not your turn: waiting for")),
        "watching": conditional_escape(gettext("You are watching.")),
        "watching_public": conditional_escape(gettext("You are watching a public table.")),
    }


def _escaped(value: Any) -> str:
    """``conditional_escape(value)`` as text: a whole number (a seat, a move number) has nothing to escape, and
    escaping one as text took ten times its ``str`` (two a seat a move)."""
    return str(value) if type(value) is int else str(conditional_escape(value))


def play_html(context: Any, language: str | None = None) -> SafeString:
    """A seat's play box (``#table-play``) as ``tables/_play.html`` laid it out, from that seat's own context (a
    dict, or a template's ``Context``): drawn for each seat after every move, a template's nodes, lookups and
    branches were most of its cost, though its hand and buttons were made here already. ``language``: the active
    one, when the caller has read it already."""
    game, seat, my_turn = context.get("game"), context.get("seat"), context.get("my_turn")
    if language is None:
        language = get_language()
    words = _play_words(language)
    out = [
        '<section id="table-play" class="play',
        " is-turn" if my_turn else "",
        '" data-my-turn="',
        "1" if my_turn else "",
        '"',
        f' data-seat="{_escaped(seat)}"' if seat is not None else "",
        ">\n  ",
    ]
    if game and seat is not None:
        out.append(_own_play_html(context, words, language))
    elif game:
        table = context.get("table")
        said = words["watching"] if getattr(table, "private", None) else words["watching_public"]
        out.append(f'\n    <p class="muted watching">{said}</p>\n  ')
    out.append("\n</section>\n")
    return SafeString("".join(out))  # every value escaped where it is put in, as the template's autoescape did


def _own_play_html(context: Any, words: dict[str, str], language: str | None) -> str:
    """A seated player's part of the play box: the hand, the buttons, or why there are none."""
    controls, view, legal = context.get("controls") or {}, context.get("view") or {}, context.get("legal")
    pick, quick, combinations = controls.get("pick"), controls.get("quick"), controls.get("combinations")
    game = context["table"].game
    out = [
        '\n    <form class="play-form" onsubmit="return false">\n      <input type="hidden" name="move" value="',
        _escaped(context.get("move_number")),
        '">\n      <div class="hand-head">\n        <h2>',
        words["hand"],
        f' <span class="muted">({len(view.get("hand") or ())})</span></h2>\n        ',
    ]
    if pick:
        out.append(f'<span class="hint">{words["tick"]}</span>\n        ')
    elif quick:
        out.append(f'<span class="hint">{words["tap"]}</span>')
    out += [
        '\n      </div>\n      \n      <div class="hand',
        " picking" if pick else "",
        " quicking" if quick else "",
        '"',
        f' data-combinations="{conditional_escape(as_json(combinations))}"' if combinations is not None else "",
        ">\n        ",
        controls.get("hand_html") or f'<span class="muted">{words["empty"]}</span>',
        "\n      </div>\n      ",
        f'<p id="unplayable-note" class="sr-only">{words["unplayable"]}</p>' if legal and pick else "",
        "\n      ",
    ]
    if legal:
        out.append('\n        <div class="actions">\n          ')
        for action in controls.get("composed") or ():
            out.append('\n            <span class="compose-group">\n              ')
            if action["type"] in controls.get("announced", ()):
                options = "".join(
                    format_html('<option value="{}">{}</option>', k, kind_name(k)) for k in controls["claim_kinds"]
                )
                out.append(
                    f'\n                <select name="kind" aria-label="{words["announce"]}">'
                    f"\n                  {options}\n                </select>\n              "
                )
            count = f" ({conditional_escape(str(controls['discard_count']))})" if action["type"] == "discard" else ""
            out.append(_compose_button(game, action, count, language))
        out.append("\n          ")
        for card, names in controls.get("jokers") or ():
            options = "".join(
                format_html('<option value="{}">{}</option>', n, mark_safe(striptags(card_plain(n)))) for n in names
            )  # a card's plain face is escaped by format_html, and only its tags are taken off
            out.append(
                format_html(
                    '\n            \n            <span class="joker-play">\n              <select id="joker-as-{}"'
                    ' name="as" form="joker-picks" aria-label="{}">{}</select>\n'
                    '              <button type="button" class="act" ws-send hx-include="#joker-as-{}" name="action"'
                    ' value=\'{{"type":"play","card":"{}"}}\'>{}'
                    "</button>\n            </span>\n          ",
                    card,
                    mark_safe(words["joker"]),
                    mark_safe(options),
                    card,
                    card,
                    mark_safe(words["play"] % {"card": conditional_escape(card_plain(card))}),
                )
            )
        out += ["\n          ", controls.get("actions_html", ""), "\n        </div>\n        "]
        if bids := controls.get("bids"):
            out.append('\n          <div class="bids-grid" aria-label="bids">\n            ')
            for tricks, row in bids:
                buttons = "".join(
                    format_html(
                        '<button type="button" class="act act-bid" ws-send name="action" value="{}" aria-label="{}">'
                        "{}</button>",
                        as_json(a),
                        mark_safe(words["bid"] % {"bid": conditional_escape(action_label(game, a))}),
                        suit(a.get("suit")),
                    )
                    for a in row
                )
                out.append(
                    f'\n              <div class="bid-row"><span class="bid-n">{conditional_escape(tricks)}</span>'
                    f"{buttons}</div>\n            "
                )
            out.append("\n          </div>\n        ")
        out.append("\n      ")
    elif context.get("me_away"):
        out.append(f'\n        <p class="muted wait">{words["away"]}</p>\n      ')
    elif not view.get("over"):
        out.append(f'\n        <p class="muted wait">{words["waiting"]}{to_play(context.get("players"))}.</p>\n      ')
    out.append("\n    </form>\n    ")
    if controls.get("jokers"):
        out.append('<form id="joker-picks" hidden onsubmit="return false"></form>')
    out.append("\n  ")
    return "".join(out)


def _compose_button(game: str, action: dict[str, Any], count: str, language: str | None) -> SafeString:
    """A button of ticked cards, kept as its game, action, count and language make it (its label's words were looked
    up for every seat that could compose one after every move)."""
    made = ("compose", game, _made_key(action), count, language)
    html = _MADE.get(made)
    if html is None:
        html = format_html(
            '\n              <button type="button" class="act compose act-{}" ws-send name="action" value="{}"'
            ' aria-keyshortcuts="Enter">{}{}</button>\n            </span>\n          ',
            action["type"],
            as_json(action),
            action_label(game, action),
            mark_safe(count),  # escaped by the caller
        )
        _keep(made, html)
    return html


def render_table(state: dict[str, Any]) -> str:
    context = dict(state)
    game = state.get("game")
    if game is not None:
        context["controls"] = play_controls(state["table"].game, state["legal"], state["view"])
    return render_to_string("tables/_live.html", context)


def render_error(message: str) -> str:
    """A refusal beside the controls; the card codes an engine names in it drawn as the hand shows them (10♠).

    The engines word a refusal as a clause ("discard exactly 4 cards, ..."), to be put in a sentence or a log; shown
    alone it is a sentence, and starts with a capital."""
    return format_html(
        '<div id="table-error" class="table-error" role="alert">{}</div>', cardify(message[:1].upper() + message[1:])
    )


def render_announcement(event: str, text: str) -> str:
    """An event organizer's announcement, swapped into the table page by id."""
    return format_html(
        '<div id="table-announcement" class="table-announcement" role="status"><strong>{}:</strong> {}</div>',
        event,
        text,
    )
