"""Biznes as its players meet it. A whole deal on phones (390 x 844, touch) in Ukrainian, a person in every seat:
the auction, the widow and the discard, asking for a banker, the roles (banker, policeman, two mafiosi), the trump
change and every trick. Then positions reached by playing through the service: a joker in the last trick, and the
trump change offered on a laptop in English.

What each player reads on the way: the phase in sentence case ("Сам чи з банкіром?", not every word capitalised),
the play's as a noun ("Розіграш", not the top bar's "Грати"); the calls made so far and the cards of the trick (and
of the last one) in sight above the docked hand, not under it; a joker in the last trick with the card it became;
a refusal is a sentence in Ukrainian; a double tap on a button makes its move once and shows no refusal; beside
"Change trump" what it does and that a declarer holding nothing but trumps must call it.
"""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.clicking import (
    TIMEOUT,
    error_of,
    hand,
    log_in,
    make_players,
    move_of,
    my_seat,
    next_turn,
    tick,
    wait_past,
)
from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_game_tables import click_and_wait, phase

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
PHONE = {"width": 390, "height": 844}
SEATS = 5  # 54 cards: ten each and a widow of four, one of them face up

#: the players (``make_players``) at a started table, in their order
SEAT = """
import json
from accounts.models import User
from tests.platform.tables.factories import started_table
users = [User.objects.get(username=name) for name in {names!r}]
table, _, _ = started_table("biznes", len(users), {{"deck": 54, "widow_open": 1}}, players=users)
print(json.dumps({{"table": table.pk}}))
"""

#: the elements matching a selector that are drawn but not seen: a corner of each is under something else (the
#: docked hand) or off the screen
COVERED = """sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length).filter(el => {
  const r = el.getBoundingClientRect();
  return [[r.left + 4, r.top + 4], [r.right - 4, r.bottom - 4]].some(([x, y]) => {
    const hit = document.elementFromPoint(x, y); return !hit || !el.contains(hit); });
}).map(el => el.dataset.card || el.textContent.trim())"""

#: every refusal the page shows from now on (a later state empties the error box again, and the clock's ticks change
#: the page while one still shows)
CATCH_REFUSALS = """() => { window.__refusals = [];
  const said = () => (document.getElementById('table-error') || {textContent: ''}).textContent.trim();
  let last = said();  // the refusal shown already is not a new one
  new MutationObserver(() => {
    const text = said();
    if (text && text !== last) window.__refusals.push(text);
    last = text;
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def tap_and_wait(page, locator) -> None:
    click_and_wait(page, locator, tap=True)


def chip(page) -> str:
    """The phase as the player reads it (innerText: as drawn, the stylesheet's case included)."""
    return page.locator("#table-board .chip.phase").inner_text().strip()


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"biznes-{name}.png"))


def test_a_whole_biznes_deal_on_phones_in_ukrainian(browser, platform_server):
    problems: list[str] = []
    tag = uuid.uuid4().hex[:4]
    names = [f"{who}{tag}" for who in ("olena", "petro", "ivan", "maria", "taras")]
    make_players(platform_server, names)
    table = platform_server.django(SEAT.format(names=names))["table"]
    contexts, pages = [], []
    for name in names:
        # no glides: a card is measured where it lies
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="uk-UA", reduced_motion="reduce"
        )
        context.set_default_timeout(TIMEOUT)
        context.on("page", lambda page: watch_page(page, problems))
        contexts.append(context)
        page = log_in(context, platform_server.url, name)
        page.goto(f"{platform_server.url}/tables/{table}/")
        page.wait_for_selector(".live-table.ws-open")
        pages.append(page)
    try:
        pages.sort(key=my_seat)

        # the auction: the first bidder bids, the next outbids him, the rest pass, and so does the first at last
        first = next_turn(pages)
        assert chip(first) == "Торгівля"
        tap_and_wait(first, first.locator(".bids-grid button.act-bid").first)
        second = next_turn(pages)
        tap_and_wait(second, second.locator(".bids-grid button.act-bid").nth(1))
        while phase(page := next_turn(pages)) == "bidding":
            if page is first:
                # five calls made: each in sight above the docked hand and the grid of bids
                shot(first, "auction")
                calls = first.locator("#table-board .bids .bid")
                assert calls.count() == SEATS, first.inner_text("#table-board")
                assert first.evaluate(COVERED, "#table-board .bids .bid") == []
            tap_and_wait(page, page.locator("button.act-pass"))
        declarer = page
        assert declarer is second and phase(declarer) == "discard"
        assert chip(declarer) == "Ділок зносить"

        # one card ticked of the four: refused in Ukrainian, as a sentence
        mine = hand(declarer)
        assert len(mine) == 14
        tick(declarer, mine[:1])
        declarer.locator("button.act-discard").tap()
        declarer.wait_for_selector("#table-error:not(:empty)")
        refused = error_of(declarer)
        assert refused.startswith("Знесіть рівно 4 карти"), refused

        # the discard, tapped twice in a row: one move, and no refusal for the second tap
        tick(declarer, [c for c in mine if not c.startswith("X")][:4])
        declarer.evaluate(CATCH_REFUSALS)
        before = move_of(declarer)
        declarer.locator("button.act-discard").dblclick()
        wait_past(declarer, before)
        declarer.wait_for_timeout(1500)  # a second frame's refusal comes back in a few milliseconds
        shot(declarer, "after-double-tap")
        assert declarer.evaluate("window.__refusals") == []
        assert move_of(declarer) == before + 1 and len(hand(declarer)) == 10

        # with a banker; the others choose clockwise: banker, policeman, and two mafiosi
        assert next_turn(pages) is declarer and chip(declarer) == "Сам чи з банкіром?"
        tap_and_wait(declarer, declarer.locator('button.act-declare[value*="true"]'))  # with a banker
        for role in ("Банкір", "Поліцейський", "Мафія", "Мафія"):
            page = next_turn(pages)
            assert chip(page) == "Вибір ролей"
            tap_and_wait(page, page.locator("button.act-role", has_text=role))

        # the tricks: every card on the table, and the last trick's, in sight above the docked hand
        page = next_turn(pages)
        assert chip(page) == "Розіграш"  # the phase, a noun like the others, not the top bar's "Грати"
        changed = False
        while page is not None:
            covered = page.evaluate(COVERED, "#table-board .trick .pcard")
            if covered:
                shot(page, "trick-covered")
            assert covered == [], f"cards of the trick under the hand: {covered}"
            if page.locator("button.act-change").count() and not changed:
                changed = True  # the change, once, when the declarer first may call it
                tap_and_wait(page, page.locator("button.act-change"))
                namer = next_turn(pages)
                assert chip(namer) == "Зміна козиря"
                shot(namer, "change")
                tap_and_wait(namer, namer.locator("button.act-trump").first)
            elif page.locator(".hand button.quick").count():
                tap_and_wait(page, page.locator(".hand button.quick").first)
            elif page.locator(".joker-play button").count():
                tap_and_wait(page, page.locator(".joker-play button").first)
            else:  # a declarer with only trumps in hand must call the change (B7), his banker names the trump
                tap_and_wait(page, page.locator("button.act-change, button.act-trump").first)
            page = next_turn(pages)
        for page in pages:
            page.wait_for_selector("#table-status.is-over")
            assert "Матч закінчено" in page.inner_text("#table-status")
        shot(pages[0], "over")
        assert problems == [], problems
    finally:
        for context in contexts:
            context.close()


#: a table of five whose deals are played through the service (the joker played whenever it may be, one bid, never
#: the change, the first legal choice otherwise) until ``until(game, view)`` holds of the position
PLAYED_UNTIL = """
import json
from accounts.models import User
from tables.models import Game
from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.tables.factories import started_table
users = [User.objects.get(username=name) for name in {names!r}]
table, _, game = started_table("biznes", len(users), {{"deck": 54}}, players=users, match_length=20)
def until(game, view):
    {until}
for _ in range(3000):
    game = Game.objects.filter(table=table).order_by("-number").first()
    view = seat_view(game, None)["view"]
    if not view["over"] and until(game, view):
        break
    seat = view["to_act"][0]
    legal = seat_view(game, seat)["legal"]
    jokers = [a for a in legal if a.get("as")]
    if jokers:
        action = jokers[0]
    elif view["phase"] == "bidding":
        action = next(a for a in legal if a["type"] == ("bid" if not view["bids"] else "pass"))
    else:
        action = next((a for a in legal if a["type"] != "change"), legal[0])
    table_apply_action(game.pk, seat, game.move_number, action)
else:
    raise AssertionError("never came to the position wanted")
print(json.dumps({{"table": table.pk, "to_act": view["to_act"][0]}}))
"""
#: a trick with a joker in it has just been taken
JOKER_TAKEN = """last = view["last_trick"]
    return not view["trick"] and bool(last) and any(c["card"].startswith("X") for c in last["cards"])"""
#: the declarer is about to lead and may call the change
CHANGE_OFFERED = """return any(a["type"] == "change" for a in seat_view(game, view["to_act"][0])["legal"])"""


def played_until(browser, platform_server, until: str, viewport: dict, locale: str):
    """Five players at a deal played to a position; the page of the player it waits for."""
    tag = uuid.uuid4().hex[:4]
    names = [f"{who}{tag}" for who in ("oksana", "yurii", "halyna", "bohdan", "zoriana")]
    make_players(platform_server, names)
    made = platform_server.django(PLAYED_UNTIL.format(names=names, until=until))
    context = browser.new_context(viewport=viewport, is_mobile=viewport is PHONE, has_touch=True, locale=locale)
    context.set_default_timeout(TIMEOUT)
    page = log_in(context, platform_server.url, names[made["to_act"]])
    page.goto(f"{platform_server.url}/tables/{made['table']}/")
    page.wait_for_selector(".live-table.ws-open")
    return context, page


def test_a_joker_in_the_last_trick_says_what_it_became(browser, platform_server):
    context, page = played_until(browser, platform_server, JOKER_TAKEN, PHONE, "uk-UA")
    try:
        joker = page.locator('#table-board .played.last:has(.pcard[data-card^="X"])').first
        shot(page, "joker-last-trick")
        # the card it became, as the trick showed it while it lay on the table ("як 7♥")
        said = joker.locator(".as")
        assert said.count() == 1 and said.inner_text().startswith("як "), joker.inner_html()
    finally:
        context.close()


def test_on_a_laptop_the_declarer_reads_what_the_trump_change_does(browser, platform_server):
    context, page = played_until(browser, platform_server, CHANGE_OFFERED, {"width": 1280, "height": 900}, "en-US")
    try:
        page.wait_for_selector('#table-play[data-my-turn="1"] button.act-change')
        page.screenshot(path=str(artifacts_dir() / "biznes-laptop-change.png"))
        # beside the button, as beside "Alone", "With a banker" and each role: what it does, and when it is a must
        hint = page.locator("#table-play .hinted:has(button.act-change) .act-hint")
        assert hint.is_visible(), page.inner_text("#table-play")
        words = hint.inner_text()
        assert "Once a deal" in words and "nothing but trumps" in words, words
    finally:
        context.close()
