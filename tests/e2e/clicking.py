"""What the browser tests share: players with verified e-mails, logging in, a table made in the lobby, and turns.

A person at the table reads the status bar (``#table-status``: the move number
and whether it is his turn) and clicks what the page offers; these helpers do
the same and wait for the page to change, never for a fixed time.
"""

from __future__ import annotations

import re

from tests.e2e.conftest import artifacts_dir

PASSWORD = "pw-e2e-cards-2026"
#: ms: a move travels browser -> daphne -> database -> channel layer -> every browser, on two loaded cores
TIMEOUT = 20_000

SETUP = """
import json
from allauth.account.models import EmailAddress
from accounts.models import User
for name in {names!r}:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
print(json.dumps({{"users": {names!r}}}))
"""


def make_players(platform, names: list[str]) -> None:
    platform.django(SETUP.format(names=names, password=PASSWORD))


def log_in(context, url: str, username: str):
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill('input[name="login"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('form button[type="submit"]:not(.link)')
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"), timeout=TIMEOUT)
    return page


def create_table(host, url: str, game: str, fields: dict[str, str]) -> int:
    """The host fills the lobby's create form (``fields``: select or input name -> value) and sits down."""
    host.goto(f"{url}/play/new/?game={game}")
    for name, value in fields.items():
        box = host.locator(f'[name="{name}"]')
        if box.evaluate("el => el.tagName") == "SELECT":
            box.select_option(value)
        else:
            box.fill(value)
    host.click('button:has-text("Create and sit down")')
    host.wait_for_url(re.compile(r"/play/\d+/$"), timeout=TIMEOUT)
    return int(re.search(r"/play/(\d+)/$", host.url).group(1))


def add_bots(host, count: int) -> None:
    """The host clicks "Add bot" on the first free seat, ``count`` times (each click reloads the waiting room)."""
    for _ in range(count):
        bots = host.locator(".lobby-seats .seat-name.bot").count()
        host.locator('.lobby-seats button:has-text("Add bot")').first.click()
        host.wait_for_function(
            "n => document.querySelectorAll('.lobby-seats .seat-name.bot').length > n", arg=bots, timeout=TIMEOUT
        )


def join(guest, url: str, game: str, table: int) -> None:
    """The guest finds the table on the Play page and takes the first free seat."""
    guest.goto(f"{url}/play/?game={game}")
    guest.click(f'.lobby-table[data-table="{table}"] a', timeout=TIMEOUT)
    guest.click('button:has-text("Join (first free seat)")')


def at_table(pages, table: int) -> None:
    """Every page is on the live table page with its socket open (the host gets there by the waiting room's poll)."""
    for page in pages:
        page.wait_for_url(f"**/tables/{table}/", timeout=TIMEOUT)
        page.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)


def move_of(page) -> int:
    return int(page.get_attribute("#table-status", "data-move"))


def wait_move(pages, number: int) -> None:
    for page in pages:
        page.wait_for_selector(f'#table-status[data-move="{number}"]', timeout=TIMEOUT)


def wait_past(page, number: int) -> None:
    """Until the page shows a state after move ``number``; a refused click shows its reason in the failure."""
    try:
        page.wait_for_function(
            "n => Number(document.querySelector('#table-status').dataset.move) > n", arg=number, timeout=TIMEOUT
        )
    except Exception as exc:
        raise AssertionError(f"the move after {number} never came; the page says {error_of(page)!r}") from exc


def error_of(page) -> str:
    return page.inner_text("#table-error").strip()


def my_seat(page) -> int:
    return int(page.get_attribute("#table-play", "data-seat"))


def is_over(page) -> bool:
    return page.locator("#table-status.is-over").count() > 0


def next_turn(pages):
    """The page whose player the game waits for now (bots move on their own), or None once the game is over.

    ``pages[0]`` watches: it sees whose turn it is; that player's own page is
    then waited for until it shows the same move and its turn.
    """
    seats = {my_seat(page): page for page in pages}
    # the page that acted last is ahead: the watcher must have seen that move before it can tell whose turn it is
    latest = max(move_of(page) for page in pages)
    watcher = pages[0]
    watcher.wait_for_function(
        "n => Number(document.querySelector('#table-status').dataset.move) >= n", arg=latest, timeout=TIMEOUT
    )
    humans = ", ".join(f'#table-seats li.turn[data-seat="{s}"]' for s in seats)
    watcher.wait_for_selector(f"#table-status.is-over, {humans}", timeout=TIMEOUT)
    if is_over(watcher):
        return None
    move = move_of(watcher)
    page = seats[int(watcher.get_attribute("#table-seats li.turn", "data-seat"))]
    try:
        # the play box his turn at this move (its move field is hidden: attached is enough)
        page.wait_for_selector(
            f'#table-play[data-my-turn="1"] input[name="move"][value="{move}"]', state="attached", timeout=TIMEOUT
        )
    except Exception:
        for i, p in enumerate(pages):
            p.screenshot(path=str(artifacts_dir() / f"next-turn-failed-{i}.png"), full_page=True)
        raise
    return page


def untick(page) -> None:
    ticked = page.locator(".hand .pick input:checked")
    while ticked.count():
        ticked.first.uncheck(force=True)  # the box itself is hidden under its card


def tick(page, cards: list[str]) -> None:
    """Tick these cards in the hand (a click on a card toggles its hidden box)."""
    untick(page)
    for card in cards:
        page.locator(f'.hand .pick:has([data-card="{card}"])').first.click()


def hand(page) -> list[str]:
    return page.locator(".hand .pcard").evaluate_all("els => els.map(e => e.dataset.card)")
