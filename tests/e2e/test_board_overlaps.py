"""Nothing hides the cards on the board: Durak's bout, Biznes' trick (and the bids row), Believe's last check,
under the docked hand, on a laptop and a phone."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, TIMEOUT, log_in
from tests.e2e.test_table_layout import PHONE

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
LAPTOP = {"width": 1280, "height": 800}

#: a table against bots, driven (the player's own moves: a pass, else the first legal one) until the board
#: shows what is measured and it is the player's turn
DRIVE = """
import json, time
from allauth.account.models import EmailAddress
from accounts.models import User
from lobbies.services import table_against_bots
from tables.models import Game
from tables.selectors import seat_view
from tables.services import ActionRefused, table_apply_action
user = User.objects.create_user({name!r}, {name!r} + "@example.com", {password!r}, display_name={name!r}.title())
EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
table = table_against_bots(user=user, game={game!r}, seats={seats})
deadline = time.monotonic() + 90
while time.monotonic() < deadline:
    game = Game.objects.filter(table=table, status="playing").first()
    seen = seat_view(game, 0)
    view = seen["view"]
    if 0 in view["to_act"] and ({ready}):
        break
    if 0 in view["to_act"]:
        legal = seen["legal"]
        action = next((a for a in legal if a["type"] == "pass"), legal[0])
        try:
            table_apply_action(game.pk, 0, game.move_number, action)
        except (ActionRefused, ValueError):
            pass
    else:
        time.sleep(0.05)  # the bots' turn: they move from the platform's Celery worker
else:
    raise SystemExit("the position was never reached")
print(json.dumps({{"table": table.pk}}))
"""

CASES = {
    "durak": (4, 'view["table"]'),
    "biznes": (4, 'view["phase"] == "play" and view["trick"] and view.get("bids")'),
    "verish": (3, 'view.get("last_check")'),
}

MEASURE = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; };
  const meet = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  const board = document.getElementById('table-board');
  // the board in view and clear of the docked hand, as far as the page scrolls, as a player looking at it has it
  // (in the same task as the measure: a bot's move may swap the board between two calls from the test)
  board.scrollIntoView({block: 'nearest'});
  const dock = document.querySelector('.play-dock');
  const under = dock ? board.getBoundingClientRect().bottom - dock.getBoundingClientRect().top : 0;
  if (under > 0) window.scrollBy(0, under);
  const bids = board.querySelector('.bids');
  const played = [...board.querySelectorAll('.trick .played .pcard, .last-check .revealed .pcard, .bout .pcard')];
  // each card seen whole: the element at its four corners is the card (or, in a Durak pair, its own cover,
  // laid across it on purpose as on a real table)
  const owner = card => card.closest('.pair') || card;
  const hidden = played.filter(card => { const r = card.getBoundingClientRect();
    return [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]]
      .some(([x, y]) => { const hit = document.elementFromPoint(x, y); return !hit || !owner(card).contains(hit); });
  });
  return {cards: played.length, hidden: hidden.map(c => c.dataset.card),
          overBids: bids ? played.filter(c => meet(box(c), box(bids))).map(c => c.dataset.card) : []};
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("game", list(CASES))
def test_played_and_revealed_cards_are_seen_whole(browser, platform_server, game, viewport):
    seats, ready = CASES[game]
    name = f"ov{game[:2]}{uuid.uuid4().hex[:5]}"
    made = platform_server.django(DRIVE.format(name=name, password=PASSWORD, game=game, seats=seats, ready=ready))
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 500, has_touch=True)
    problems: list[str] = []
    page = log_in(context, platform_server.url, name)
    watch_page(page, problems)
    try:
        page.goto(f"{platform_server.url}/tables/{made['table']}/")
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TIMEOUT)
        page.wait_for_selector(
            "#table-board .trick .played, #table-board .last-check, #table-board .bout .pcard", timeout=TIMEOUT
        )
        m = page.evaluate(MEASURE)
        page.screenshot(path=str(artifacts_dir() / f"board-{game}-{viewport['width']}.png"))
        assert m["cards"] > 0
        assert m["overBids"] == [], f"played cards over the bids: {m}"
        assert m["hidden"] == [], f"cards partly hidden: {m}"
        assert problems == []
    finally:
        context.close()
