"""Two people play Durak against each other in two browsers, by clicking, live over the socket."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page

pytestmark = pytest.mark.slow

PASSWORD = "pw-e2e-cards-2026"
TIMEOUT = 15_000  # ms: a move travels browser -> daphne -> database -> channel layer -> both browsers

# two players with verified e-mails (sign-up verification is mandatory); the table is made in the lobby
SETUP = """
import json
from allauth.account.models import EmailAddress
from accounts.models import User
for name in {names!r}:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
print(json.dumps({{"users": {names!r}}}))
"""


def log_in(context, url: str, username: str):
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill('input[name="login"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('form button[type="submit"]:not(.link)')
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"), timeout=TIMEOUT)
    return page


def create_and_join(host, guest, url: str) -> int:
    """The host creates a two-seat Durak table in the lobby; the guest finds it on the Play page and joins.

    Both end on the live table page: the guest by the join's redirect, the host
    by the waiting room's poll once every seat is filled.
    """
    host.goto(f"{url}/play/new/?game=durak")
    host.select_option('select[name="seats"]', "2")
    host.select_option('select[name="turn_seconds"]', "120")  # no turn timeout while the browsers work
    host.click('button:has-text("Create and sit down")')
    host.wait_for_url(re.compile(r"/play/\d+/$"), timeout=TIMEOUT)
    table = int(re.search(r"/play/(\d+)/$", host.url).group(1))

    guest.goto(f"{url}/play/?game=durak")
    guest.click(f'.lobby-table[data-table="{table}"] a', timeout=TIMEOUT)
    guest.click('button:has-text("Join (first free seat)")')
    for page in (guest, host):
        page.wait_for_url(f"**/tables/{table}/", timeout=TIMEOUT)
        page.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    return table


def move_of(page) -> int:
    return int(page.get_attribute("#table-status", "data-move"))


def wait_move(pages, number: int) -> None:
    for page in pages:
        page.wait_for_selector(f'#table-status[data-move="{number}"]', timeout=TIMEOUT)


def to_act(pages):
    """The page whose player the game is waiting for."""
    for page in pages:
        if page.get_attribute("#table-play", "data-my-turn") == "1":
            return page
    raise AssertionError("nobody's turn in either browser")


def untick(page) -> None:
    ticked = page.locator(".hand .pick input:checked")
    while ticked.count():
        ticked.first.uncheck(force=True)  # the box itself is hidden under its card


def play_one(page) -> str:
    """Click one legal move the page offers, the way a person would; returns what was done."""
    quick = page.locator(".hand button.quick")
    if quick.count():
        card = quick.first.locator(".pcard").get_attribute("data-card")
        quick.first.click()
        return f"card {card}"
    picks = page.locator(".hand .pick")
    compose = page.locator("button.compose")
    if picks.count() and compose.count() and page.locator("button.act-done, button.act-take").count() == 0:
        untick(page)
        # read the words first: the move swaps the hand and the buttons away as soon as it lands
        done = f"{compose.first.inner_text()} {picks.first.locator('.pcard').get_attribute('data-card')}"
        picks.first.click()
        compose.first.click()
        return done
    for name in ("button.act-cover", "button.act-take", "button.act-done", "button.act"):
        button = page.locator(name)
        if button.count():
            text = button.first.inner_text()
            button.first.click()
            return text
    raise AssertionError("no legal move offered to the player whose turn it is")


def test_two_players_play_durak_by_clicking_and_survive_a_reload(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"alice{tag}", f"boris{tag}"]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))

    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in names]
    problems: list[str] = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    pages = [log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True)]
    create_and_join(pages[0], pages[1], url)
    for page in pages:
        assert move_of(page) == 0
    # each sees both names, and only its own hand as faces
    for page in pages:
        seats = page.inner_text("#table-seats")
        assert names[0].title() in seats and names[1].title() in seats
        assert page.locator(".hand .pcard").count() == 6

    attacker = to_act(pages)
    defender = pages[1] if attacker is pages[0] else pages[0]
    assert defender.get_attribute("#table-play", "data-my-turn") == ""
    # the status and the seats are the same HTML for everyone: each page marks its own seat, and only the
    # player to act reads "Your turn" (the others read whom the table waits for)
    for page, name in zip(pages, names, strict=True):
        mine = page.locator("#table-seats .badge.you:visible")
        assert mine.count() == 1 and name.title() in mine.locator("xpath=ancestor::li").inner_text()
    assert "Your turn" in attacker.inner_text("#table-status")
    assert "Your turn" not in defender.inner_text("#table-status") and "Waiting for" in defender.inner_text(
        "#table-status"
    )

    # an impossible attack (two cards of different ranks) is refused visibly and changes nothing
    hand = attacker.locator(".hand .pick")
    ranks = [c[0] for c in attacker.locator(".hand .pick .pcard").evaluate_all("els => els.map(e => e.dataset.card)")]
    pair = next(((i, j) for i in range(len(ranks)) for j in range(i + 1, len(ranks)) if ranks[i] != ranks[j]), None)
    if pair is not None:
        hand.nth(pair[0]).click()
        hand.nth(pair[1]).click()
        attacker.click("button.compose")
        attacker.wait_for_selector("#table-error:not(:empty)", timeout=TIMEOUT)
        assert move_of(attacker) == 0 and move_of(defender) == 0
        untick(attacker)

    # the attacker ticks one card and attacks: both browsers show it on the table
    card = hand.first.locator(".pcard").get_attribute("data-card")
    hand.first.click()
    attacker.click("button.compose")
    wait_move(pages, 1)
    for page in pages:
        assert page.locator(f'#table-board .bout [data-card="{card}"]').count() == 1
    assert attacker.locator(f'.hand [data-card="{card}"]').count() == 0
    assert attacker.locator("#table-error").inner_text() == ""  # the next state cleared the error
    assert to_act(pages) is defender and "Your turn" in defender.inner_text("#table-status")

    # the defender answers by clicking; the attacker sees it
    did = play_one(defender)
    wait_move(pages, 2)
    assert attacker.locator("#table-log li").count() == 2, did

    # a reload restores everything, and play goes on from there
    attacker.reload()
    attacker.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    assert move_of(attacker) == 2 and attacker.locator("#table-log li").count() == 2
    for number in range(3, 7):
        play_one(to_act(pages))
        wait_move(pages, number)
        if number == 4:
            defender.reload()
            defender.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
            assert move_of(defender) == 4
    assert attacker.inner_text("#table-log") == defender.inner_text("#table-log")

    shot = artifacts_dir() / "durak-table.png"
    attacker.screenshot(path=str(shot), full_page=True)
    print(f"table page screenshot: {shot}")
    for ctx in contexts:
        ctx.close()
    # no console warning (the htmx 1 WebSocket extension warned on every page), no failed request
    assert problems == [], problems
