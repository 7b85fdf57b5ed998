"""A phone (390 x 844): the cards on the table and your hand on one screen, for every game and seat count;
a refusal shows next to the controls; the Durak trump under the stock reads upright."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_table_layout import PHONE, TIMEOUT, TURN_TIMEOUT, open_table

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}

SEATS = [("durak", n) for n in range(2, 7)] + [("biznes", n) for n in (4, 5, 6)] + [("verish", n) for n in (3, 4, 5, 6)]

#: where the board and the hand are on the screen as it is (nothing scrolled), and what covers the board's cards
MEASURE = """() => {
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  // what a person sees at a point: the element there must belong to the part it is measured for
  const seen = (el, x, y) => { const hit = document.elementFromPoint(x, y); return !!hit && el.contains(hit); };
  const corners = el => { const r = el.getBoundingClientRect();
    return [[r.left + 4, r.top + 4], [r.right - 4, r.top + 4],
            [r.left + 4, r.bottom - 4], [r.right - 4, r.bottom - 4]]; };
  const hidden = (part, els) => els.filter(el => corners(el).some(([x, y]) => !seen(part, x, y)))
    .map(el => el.dataset.card || el.className);
  const board = document.getElementById('table-board');
  const play = document.getElementById('table-play');
  const hand = play.querySelector('.hand');
  return {vw: innerWidth, vh: innerHeight, scrollY: scrollY, pageWidth: document.documentElement.scrollWidth,
          board: box(board), hand: box(hand),
          actions: box(play.querySelector('.actions, .bids-grid')),
          // the board itself and every card on it, and every card in the hand, unhidden
          covered: hidden(board, [board.querySelector('.felt'), ...board.querySelectorAll('.pcard')]),
          handCovered: hidden(play, [...hand.querySelectorAll('.pcard')])};
}"""


def inside(box: dict, m: dict) -> bool:
    vertical = box["top"] >= -0.5 and box["bottom"] <= m["vh"] + 0.5
    return vertical and box["left"] >= -0.5 and box["right"] <= m["vw"] + 0.5


@pytest.mark.parametrize(("game", "seats"), SEATS)
def test_on_a_phone_the_board_and_the_hand_are_on_one_screen(browser, platform_server, game, seats):
    problems: list[str] = []
    context, page, _names = open_table(browser, platform_server, game, seats, PHONE, f"ph{game[:2]}{seats}")
    watch_page(page, problems)
    try:
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TURN_TIMEOUT)
        page.wait_for_selector("#table-play .actions, #table-play .bids-grid", timeout=TIMEOUT)
        m = page.evaluate(MEASURE)
        page.screenshot(path=str(artifacts_dir() / f"phone-board-{game}-{seats}.png"))
        assert m["scrollY"] == 0 and m["pageWidth"] <= m["vw"], m
        assert inside(m["board"], m), f"the board is not all on screen: {m['board']}"
        assert inside(m["hand"], m), f"the hand is not all on screen: {m['hand']}"
        assert m["actions"] and inside(m["actions"], m), f"the actions are off screen: {m['actions']}"
        assert m["covered"] == [], f"the board or its cards hidden: {m['covered']}"
        assert m["handCovered"] == [], f"cards in the hand hidden: {m['handCovered']}"
        assert problems == []
    finally:
        context.close()


#: the trump card under the stock: upright, its rank and suit seen whole (nothing over them, nothing cut)
TRUMP = """() => {
  const card = document.querySelector('#table-board .trump-card .pcard');
  if (!card) return null;
  const part = sel => { const el = card.querySelector(sel), r = el.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {text: el.textContent, seen: !!hit && card.contains(hit), whole: el.scrollWidth <= el.clientWidth + 1}; };
  return {transform: getComputedStyle(card).transform, rank: part('.rank'), suit: part('.suit'),
          code: card.dataset.card};
}"""


def _screenshot(page, selector: str, name: str) -> None:
    """A picture of the element; taken again if a socket's update swapped the element out while it was taken."""
    for attempt in range(5):
        try:
            page.locator(selector).screenshot(path=str(artifacts_dir() / name))
            return
        except PlaywrightError:
            if attempt == 4:
                raise


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}], ids=["phone", "laptop"])
def test_the_trump_under_the_stock_reads_upright(browser, platform_server, viewport):
    context, page, _names = open_table(browser, platform_server, "durak", 2, viewport, f"tr{viewport['width']}")
    try:
        # on his turn the bot waits for him: the board is not redrawn under the measurement
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TURN_TIMEOUT)
        page.wait_for_selector("#table-board .trump-card .pcard", timeout=TIMEOUT)
        trump = page.evaluate(TRUMP)
        _screenshot(page, "#table-board .stock", f"trump-{viewport['width']}.png")
        assert trump["transform"] == "none", trump
        assert trump["rank"]["seen"] and trump["suit"]["seen"], trump
        assert trump["rank"]["whole"] and trump["rank"]["text"] in ("6", "7", "8", "9", "10", "J", "Q", "K", "A"), trump
    finally:
        context.close()


#: where the refusal and the controls were the moment the refusal showed: a later state (the socket's first
#: frame, anyone's move) draws an empty error box again, and may do so before the test reads the page
CATCH_REFUSAL = """() => { window.__refusal = null;
  new MutationObserver((_, observer) => {
    const error = document.getElementById('table-error'), play = document.getElementById('table-play');
    if (!error || !play || !error.textContent.trim()) return;
    const box = el => { const r = el.getBoundingClientRect(); return {y: r.top, height: r.height}; };
    window.__refusal = {text: error.textContent.trim(), error: box(error), controls: box(play), scrollY: scrollY};
    observer.disconnect();
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""

#: a control whose action the engine refuses: its value is changed and it is clicked in one go, so no frame
#: in between can swap in a fresh button and turn the click into a legal move
REFUSED_CLICK = """() => { const b = document.querySelector('#table-play[data-my-turn="1"] button.act');
  if (!b) return false;
  b.value = JSON.stringify({type: 'nonsense'}); b.click(); return true; }"""


def test_on_a_phone_a_refusal_shows_next_to_the_controls(browser, platform_server):
    problems: list[str] = []
    context, page, _names = open_table(browser, platform_server, "durak", 3, PHONE, "refused")
    watch_page(page, problems)
    try:
        page.evaluate(CATCH_REFUSAL)
        page.wait_for_function(REFUSED_CLICK, timeout=TURN_TIMEOUT, polling=100)
        page.wait_for_function("() => window.__refusal", timeout=TIMEOUT)
        refusal = page.evaluate("window.__refusal")
        page.screenshot(path=str(artifacts_dir() / "phone-refusal.png"))
        assert refusal["text"], refusal
        assert refusal["scrollY"] == 0, refusal
        error, controls = refusal["error"], refusal["controls"]
        assert error["y"] >= 0 and error["y"] + error["height"] <= PHONE["height"], refusal
        # right above the hand and its buttons, not at the top of the page
        assert 0 <= controls["y"] - (error["y"] + error["height"]) <= 12, refusal
        assert problems == []
    finally:
        context.close()


HINT_WIDTH = """() => { const h = document.querySelector('#table-play .act-hint');
  return h ? h.getBoundingClientRect().width : -1; }"""


#: the hand's heading drawn over by the buttons and their explanations: the points of its words where another element
#: is on top (none: it is in sight)
HEAD_UNDER_ACTIONS = """() => { const head = document.querySelector('#table-play .hand-head h2');
  const r = head.getBoundingClientRect(), points = [];
  for (const fx of [0.1, 0.5, 0.9]) { const x = r.left + fx * r.width, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !head.contains(hit)) points.push([x, y, hit && hit.className]); }
  return points; }"""


def test_on_a_phone_the_buttons_explanations_show_when_asked_for(browser, platform_server):
    """A phone leaves the buttons' explanations out for room; a newcomer who asks for them ("Hints") sees
    what Pass (and later a role) does, and the page remembers it after a reload."""
    problems: list[str] = []
    context, page, _names = open_table(browser, platform_server, "biznes", 4, PHONE, "hints")
    watch_page(page, problems)
    try:
        page.wait_for_selector('#table-play[data-my-turn="1"] .act-hint', state="attached", timeout=TURN_TIMEOUT)
        assert page.evaluate(HINT_WIDTH) <= 1  # read by screen readers only
        toggle = page.locator(".table-hints")
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        page.wait_for_function(f"({HINT_WIDTH})() > 40", timeout=TIMEOUT)
        assert toggle.get_attribute("aria-pressed") == "true"
        _screenshot(page, "#table-play", "phone-button-hints.png")
        # the hand and its buttons still fit the screen beside their explanations, which cover nothing
        m = page.evaluate(MEASURE)
        assert m["pageWidth"] <= m["vw"], f"the page scrolls sideways: {m['pageWidth']} px"
        assert m["handCovered"] == [], m
        assert page.evaluate(HEAD_UNDER_ACTIONS) == []
        page.reload()
        page.wait_for_selector('#table-play[data-my-turn="1"] .act-hint', state="attached", timeout=TURN_TIMEOUT)
        page.wait_for_function(f"({HINT_WIDTH})() > 40", timeout=TIMEOUT)
        page.locator(".table-hints").click()
        page.wait_for_function(f"({HINT_WIDTH})() <= 1", timeout=TIMEOUT)
        assert problems == []
    finally:
        context.close()
