"""How to play from the lobby and the table, the quick start's player counts, the sound switch, and motion.

One player starts Durak against a bot from the Play page: the quick start
offers only the counts the game allows; the rules open from the lobby and
from the table; cards glide when they move; the sound switch is remembered
after a reload and silences the table; with reduced motion nothing moves.
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, log_in, move_of, play_one

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}


def offered_seats(page) -> list[str]:
    return page.locator('#quick-seats select[name="seats"] option').evaluate_all("els => els.map(e => e.value)")


def choose_game(page, game: str, counts: list[str]) -> None:
    """Pick the game in the quick start; htmx swaps in its player counts."""
    page.select_option('.lobby-bots-form select[name="game"]', game)
    page.wait_for_function(
        "counts => [...document.querySelectorAll('#quick-seats option')].map(o => o.value).join() === counts",
        arg=",".join(counts),
        timeout=TIMEOUT,
    )


def my_move(page) -> None:
    """Wait for this player's turn, make one legal move, and wait until it is on the page."""
    page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TIMEOUT)
    number = move_of(page)
    play_one(page)
    page.wait_for_function(
        "n => Number(document.getElementById('table-status').dataset.move) > n", arg=number, timeout=TIMEOUT
    )


def live(page, key: str) -> str:
    return page.evaluate(f"document.querySelector('.live-table').dataset.{key} || ''")


def test_rules_quick_start_sound_and_motion(browser, platform_server):
    url = platform_server.url
    name = f"sonia{uuid.uuid4().hex[:6]}"
    platform_server.django(SETUP.format(names=[name], password=PASSWORD))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    context.on("page", lambda p: watch_page(p, problems))
    page = log_in(context, url, name)

    # How to play, from the lobby
    page.goto(f"{url}/play/")
    page.click(".lobby-head a.rules-link")
    page.wait_for_url("**/rules/")
    page.click('a.game:has-text("Durak")')
    page.wait_for_url("**/rules/durak/")
    assert page.inner_text("h1") == "How to play Durak"
    assert "Options you can choose for a table" in page.inner_text(".rules")
    page.screenshot(path=str(artifacts_dir() / "rules-durak.png"), full_page=True)

    # the quick start offers only the counts each game's usual rules allow
    page.goto(f"{url}/play/")
    assert offered_seats(page) == ["2", "3", "4", "5", "6"]
    choose_game(page, "biznes", ["4", "5", "6"])
    choose_game(page, "durak", ["2", "3", "4", "5", "6"])
    page.select_option('#quick-seats select[name="seats"]', "2")
    page.click('.lobby-bots-form button[type="submit"]')
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector(".live-table.ws-open")

    # How to play, from the table: in a new tab, so the game stays open
    with context.expect_page() as opened:
        page.click(".table-help a.rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.inner_text("h1") == "How to play Durak"
    rules.close()

    # motion: cards glide from where they were; the seats' highlight fades
    assert live(page, "motion") == "on"
    assert page.eval_on_selector("#table-seats .seat", "el => getComputedStyle(el).transitionDuration") != "0s"
    my_move(page)
    page.wait_for_function("Number(document.querySelector('.live-table').dataset.animated) > 0", timeout=TIMEOUT)

    # sound: on by default; after the player's click the table plays (the last sound heard is on the page)
    switch = page.locator(".table-help .table-sound")
    assert switch.get_attribute("aria-pressed") == "true"
    my_move(page)
    page.wait_for_function("!!document.querySelector('.live-table').dataset.sound", timeout=TIMEOUT)

    # switched off: the top bar's switch agrees, the table is silent, and a reload remembers it
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    heard = live(page, "sound")
    my_move(page)
    assert live(page, "sound") == heard
    page.reload()
    page.wait_for_selector(".live-table.ws-open")
    page.wait_for_selector('.table-help .table-sound[aria-pressed="false"]:not([hidden])')
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"

    # reduced motion: no transition, no animation, no glide
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    page.wait_for_selector(".live-table.ws-open")
    assert live(page, "motion") == "off"
    assert page.eval_on_selector("#table-seats .seat", "el => getComputedStyle(el).transitionDuration") == "0s"
    my_move(page)
    assert live(page, "animated") == "0"
    assert page.evaluate("document.getAnimations().length") == 0

    shot = artifacts_dir() / "help-sound-motion.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"table page screenshot: {shot}")
    context.close()
    assert problems == [], problems
