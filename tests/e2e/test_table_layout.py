"""A full table on a 390 px phone and a 1280 px laptop: the hand and the actions on screen, every seat's
column of the score sheet visible, bots by their own names."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, log_in

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
TIMEOUT = 15_000
TURN_TIMEOUT = 60_000  # bots play at once, but a six-seat Durak may take a few bouts to come round
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

SETUP = """
import json
from allauth.account.models import EmailAddress
from accounts.models import User
from lobbies.services import table_against_bots
user = User.objects.create_user({name!r}, {name!r} + "@example.com", {password!r}, display_name={name!r}.title())
EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
table = table_against_bots(user=user, game={game!r}, seats={seats})
names = [s.user.name for s in table.seats.select_related("user").order_by("index")]
print(json.dumps({{"table": table.pk, "names": names}}))
"""

#: what the player sees without scrolling, and whether anything pushes the page sideways
MEASURE = """() => {
  const box = el => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const sheet = document.querySelector('.score-sheet');
  const wrap = document.querySelector('.sheet-scroll');
  const heads = [...document.querySelectorAll('.score-sheet thead th')].map(box);
  const totals = [...document.querySelectorAll('.score-sheet tfoot th')].map(box);
  return {
    vw: window.innerWidth, vh: window.innerHeight,
    pageWidth: document.documentElement.scrollWidth,
    hand: box(document.querySelector('#table-play .hand')),
    actions: [...document.querySelectorAll('#table-play .actions, #table-play .bids-grid')].map(box),
    sheetWidth: sheet && sheet.scrollWidth, wrapWidth: wrap && wrap.clientWidth, wrapBox: box(wrap),
    heads, totals,
    // a name cut short by an ellipsis: the column is too narrow to read it
    clipped: [...document.querySelectorAll('.score-sheet thead th[title]')]
      .filter(th => th.scrollWidth > th.clientWidth + 1 || th.scrollHeight > th.clientHeight + 1).map(th => th.title),
  };
}"""


def within(box: dict, m: dict) -> bool:
    return box["top"] >= 0 and box["bottom"] <= m["vh"] + 0.5 and box["left"] >= 0 and box["right"] <= m["vw"] + 0.5


def open_table(browser, platform_server, game: str, seats: int, viewport: dict, tag: str):
    name = f"{tag}{uuid.uuid4().hex[:4]}"  # unique: the platform's PostgreSQL database outlives a run
    made = platform_server.django(SETUP.format(name=name, password=PASSWORD, game=game, seats=seats))
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 500, has_touch=True)
    page = log_in(context, platform_server.url, name)
    page.goto(f"{platform_server.url}/tables/{made['table']}/")
    page.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    return context, page, made["names"]


@pytest.mark.parametrize(
    ("game", "seats"),
    [("biznes", 6), ("biznes", 5), ("biznes", 4), ("durak", 6), ("durak", 2), ("verish", 6)],
)
def test_on_a_phone_the_hand_and_the_actions_stay_on_screen(browser, platform_server, game, seats):
    problems: list[str] = []
    context, page, names = open_table(browser, platform_server, game, seats, PHONE, f"{game[:2]}{seats}")
    watch_page(page, problems)
    try:
        # every bot has a name of its own, and the page shows each
        assert len(set(names)) == seats
        for name in names[1:]:
            page.wait_for_selector(f'#table-seats .seat-name:has-text("{name}")', timeout=TIMEOUT)
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TURN_TIMEOUT)
        page.wait_for_selector("#table-play .actions, #table-play .bids-grid", timeout=TIMEOUT)
        m = page.evaluate(MEASURE)
        page.screenshot(path=str(artifacts_dir() / f"phone-{game}-{seats}.png"))
        assert m["pageWidth"] <= m["vw"], f"the page scrolls sideways: {m['pageWidth']} px"
        assert within(m["hand"], m), f"the hand is off screen: {m['hand']}"
        assert m["actions"] and all(within(b, m) for b in m["actions"]), f"actions off screen: {m['actions']}"
        # the score sheet: every seat's column and total inside its box, nothing behind a sideways scroll
        assert len(m["heads"]) == seats + 1 and m["sheetWidth"] <= m["wrapWidth"] + 1
        assert all(b["right"] <= m["wrapBox"]["right"] + 1 for b in m["heads"] + m["totals"])
        assert m["clipped"] == [], f"names cut short in the sheet: {m['clipped']}"
        log = page.inner_text("#table-log")
        assert "Heuristic bot" not in log and " bot " not in log
        assert problems == []
    finally:
        context.close()


def test_on_a_laptop_the_sheet_shows_all_six_seats_and_their_totals(browser, platform_server):
    problems: list[str] = []
    context, page, names = open_table(browser, platform_server, "biznes", 6, LAPTOP, "lap6")
    watch_page(page, problems)
    try:
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TURN_TIMEOUT)
        m = page.evaluate(MEASURE)
        page.screenshot(path=str(artifacts_dir() / "laptop-biznes-6.png"), full_page=True)
        assert len(m["heads"]) == 7 and len(m["totals"]) == 7
        assert m["sheetWidth"] <= m["wrapWidth"] + 1, f"sheet {m['sheetWidth']} px in a {m['wrapWidth']} px box"
        assert all(b["right"] <= m["wrapBox"]["right"] + 1 for b in m["heads"] + m["totals"])
        assert m["clipped"] == [], f"names cut short in the sheet: {m['clipped']}"
        assert within(m["hand"], m) and all(within(b, m) for b in m["actions"])
        heads = page.locator(".score-sheet thead th")
        assert [heads.nth(i).get_attribute("title") for i in range(1, 7)] == names
        assert problems == []
    finally:
        context.close()
