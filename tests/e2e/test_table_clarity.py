"""Two people play Durak by keyboard and mouse; the table shows what each may do, and says each move aloud.

Cards no legal move plays are dimmed (readable: no transparency), a ticked
card dims those that cannot join it, number keys tick cards, Enter attacks, T
takes, D is Done; Done is never refused for a card left ticked; a screen
reader hears each move as one sentence: who did what, whose turn it is.
"""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.clicking import TIMEOUT, at_table, create_table, error_of, join, log_in, make_players, move_of, wait_past
from tests.e2e.conftest import artifacts_dir, watch_page

pytestmark = pytest.mark.slow


def shot(page, name: str) -> str:
    path = artifacts_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return str(path)


def cards_of(page, selector: str) -> list[str]:
    return page.locator(f"{selector} .pcard").evaluate_all("els => els.map(e => e.dataset.card)")


def my_turn(pages):
    for _ in range(2):
        for page in pages:
            if page.get_attribute("#table-play", "data-my-turn") == "1":
                return page
        pages[0].wait_for_timeout(200)
    raise AssertionError("nobody's turn")


def settle(pages, move: int) -> None:
    for page in pages:
        page.wait_for_selector(f'#table-status[data-move="{move}"]', timeout=TIMEOUT)


def test_legal_moves_keyboard_and_spoken_moves(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"anna{tag}", f"boris{tag}"]
    make_players(platform_server, names)
    problems: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in names]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    pages = [log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True)]
    table = create_table(pages[0], url, "durak", {"seats": "2", "turn_seconds": "120"})
    join(pages[1], url, "durak", table)
    at_table(pages, table)

    attacker = my_turn(pages)
    defender = pages[1] if attacker is pages[0] else pages[0]
    attacker_name = names[pages.index(attacker)].title()

    # the help lists the keys
    attacker.click(".table-keys summary")
    keys = attacker.inner_text(".table-keys")
    assert "Enter" in keys and "Take the cards" in keys and "Done" in keys

    # every card may lead: none dimmed; key 1 ticks the first, and the others of another rank are dimmed
    hand = cards_of(attacker, ".hand")
    assert attacker.locator(".hand .unplayable").count() == 0
    attacker.locator("body").press("1")
    assert attacker.locator(".hand .pick input").first.is_checked()
    dimmed = set(cards_of(attacker, ".hand .cannot-join"))
    assert dimmed == {c for c in hand[1:] if c[0] != hand[0][0]}, (hand, dimmed)
    if dimmed:
        style = attacker.locator(".hand .cannot-join .pcard").first.evaluate(
            "el => [getComputedStyle(el).opacity, getComputedStyle(el).backgroundColor]"
        )
        assert style[0] == "1" and style[1] != "rgb(255, 255, 255)", style
    shot(attacker, "clarity-attacker-ticked")
    # Escape unticks, and the hand is whole again; 1 and Enter attack with the first card
    attacker.keyboard.press("Escape")
    assert attacker.locator(".hand .cannot-join").count() == 0
    attacker.keyboard.press("1")
    attacker.keyboard.press("Enter")
    wait_past(attacker, 0)
    settle(pages, 1)

    # the defender hears the move and that it is his turn; cards that beat nothing are dimmed
    said = defender.locator("#table-say")
    defender.wait_for_function("() => document.querySelector('#table-say').textContent.includes('Your turn')")
    assert attacker_name in said.inner_text(), said.inner_text()
    attacker.wait_for_function("() => document.querySelector('#table-say').textContent.includes('Waiting for')")
    beaters = set(cards_of(defender, ".hand button.quick"))
    dim = set(cards_of(defender, ".hand .unplayable"))
    assert dim and not dim & beaters and dim | beaters == set(cards_of(defender, ".hand")), (dim, beaters)
    shot(defender, "clarity-defender")

    # T takes the cards
    defender.keyboard.press("t")
    wait_past(defender, 1)
    settle(pages, 2)

    # play on by keyboard until Done is offered beside cards to tick: tick one and press D; never refused
    checked_done = False
    for _ in range(60):
        page = my_turn(pages)
        move = move_of(page)
        if page.locator("button.act-done").count() and page.locator(".hand .pick").count():
            page.locator(".hand .pick").first.click()
            page.keyboard.press("d")
            wait_past(page, move)
            assert error_of(page) == ""
            checked_done = True
            break
        if page.locator("button.act-take").count():
            page.keyboard.press("t")
        elif page.locator(".hand button.quick").count():
            page.locator(".hand button.quick").first.click()
        elif page.locator("button.act-done").count():
            page.keyboard.press("d")
        else:
            page.keyboard.press("1")
            page.keyboard.press("Enter")
        wait_past(page, move)
        settle(pages, move + 1)
        if page.locator("#table-status.is-over").count():
            break
    assert checked_done, "Done was never offered beside tickable cards"
    print("screenshots:", shot(attacker, "clarity-attacker-end"), shot(defender, "clarity-defender-end"))
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems
