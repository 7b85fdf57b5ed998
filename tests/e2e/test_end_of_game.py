"""The end of a game in the browser: resign (with its confirm step), the result banner, rematch; Leave at a
table of bots ends it at once and a spectator is told, live over the socket."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, create_and_join, log_in

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.3"}


def players(browser, platform_server, count: int, problems: list[str]):
    tag = uuid.uuid4().hex[:6]
    names = [f"{who}{tag}" for who in ("alice", "boris", "vera")[:count]]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in names]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    return names, contexts, [log_in(ctx, platform_server.url, name) for ctx, name in zip(contexts, names, strict=True)]


def test_resign_then_the_banner_and_a_rematch_everyone_agreed_to(browser, platform_server):
    url = platform_server.url
    problems: list[str] = []
    names, contexts, (alice, boris) = players(browser, platform_server, 2, problems)
    table = create_and_join(alice, boris, url)
    assert not alice.locator("#table-end").is_visible()

    # resigning asks first; only "Yes, resign" does it
    boris.click("#table-away details.resign summary")
    confirm = boris.locator('#table-away button:has-text("Yes, resign")')
    assert confirm.is_visible() and "lose this game" in boris.inner_text("#table-away")
    confirm.click()
    boris.wait_for_url(f"**/tables/{table}/")

    # both see the end at once: the winner named, places, each rating change signed; the replay link is live
    for page in (alice, boris):
        page.wait_for_selector("#table-end.is-shown", timeout=TIMEOUT)
        banner = page.inner_text("#table-end")
        assert f"{names[0].title()} wins the match" in banner
        assert re.search(r"1\.\s*" + names[0].title() + r"\s*\+\d+", banner), banner
        assert re.search(r"2\.\s*" + names[1].title() + r"\s*\N{MINUS SIGN}\d+", banner), banner
        assert page.locator('#table-links a:has-text("replay of this game")').count() == 1
        assert page.locator("#table-end a.end-replay").count() == 1
        assert "resigns" in page.inner_text("#table-log")
        new_href = page.get_attribute('#table-end a:has-text("New table")', "href")
        assert f"from={table}" in new_href
    assert alice.locator("#table-play button:enabled").count() == 0
    alice.screenshot(path=str(artifacts_dir() / "end-of-game.png"), full_page=True)
    # "You resigned." is news for a moment only
    boris.wait_for_selector(".messages li", state="detached", timeout=TIMEOUT)

    # a rematch needs both: the first to agree waits, the other sees who agreed
    alice.click('#table-end button:has-text("Rematch")')
    alice.wait_for_selector("#table-end .rematch-wait", timeout=TIMEOUT)
    assert names[1].title() in alice.inner_text("#table-end .rematch-wait")
    # (her name is on the banner already, as the winner: wait for the words that only her vote brings)
    boris.wait_for_selector('#table-end :text("Already agreed")', timeout=TIMEOUT)
    assert names[0].title() in boris.inner_text("#table-end .muted:has-text('Already agreed')")
    boris.click('#table-end button:has-text("Rematch")')
    boris.wait_for_url(re.compile(rf"/tables/(?!{table}/)\d+/$"), timeout=TIMEOUT)
    rematch = int(re.search(r"/tables/(\d+)/$", boris.url).group(1))
    alice.wait_for_url(f"**/tables/{rematch}/", timeout=TIMEOUT)  # her page followed over the socket
    for page in (alice, boris):
        page.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
        seats = page.inner_text("#table-seats")
        assert names[0].title() in seats and names[1].title() in seats
        assert not page.locator("#table-end").is_visible()

    # the finished table stays readable later: its banner links to the rematch instead of jumping there
    alice.goto(f"{url}/tables/{table}/")
    alice.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    assert alice.locator(f'#table-end a[href="/tables/{rematch}/"]').is_visible()
    assert alice.url.endswith(f"/tables/{table}/")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


def test_leaving_a_table_of_bots_ends_it_at_once_and_a_spectator_is_told(browser, platform_server):
    url = platform_server.url
    problems: list[str] = []
    _, contexts, (alice, vera) = players(browser, platform_server, 2, problems)
    alice.goto(f"{url}/play/")
    alice.select_option('.lobby-bots-form select[name="game"]', "durak")
    alice.select_option('.lobby-bots-form select[name="seats"]', "3")
    alice.click('.lobby-bots-form button[type="submit"]')
    alice.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=TIMEOUT)
    table = int(re.search(r"/tables/(\d+)/$", alice.url).group(1))
    alice.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    assert "unrated" in alice.inner_text("#table-links")

    vera.goto(f"{url}/tables/{table}/")  # a spectator
    vera.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
    assert vera.locator("#table-away form").count() == 0

    # the bots move all the time; the Leave form is never swapped under the pointer, so one click does it
    leave = alice.locator('#table-away button:has-text("Leave (the table ends)")')
    # (the game is under way: a bot moved, or it is her turn first)
    alice.wait_for_function(
        "Number(document.getElementById('table-status').dataset.move) >= 1"
        " || document.querySelector('#table-play.is-turn') !== null",
        timeout=TIMEOUT,
    )
    leave.click()
    alice.wait_for_selector("#table-status .aborted", timeout=TIMEOUT)
    assert "Every player left" in alice.inner_text("#table-status")
    assert alice.locator("#table-play button:enabled").count() == 0
    vera.wait_for_selector("#table-status .aborted", timeout=TIMEOUT)  # told live, no reload
    assert "Every player left" in vera.inner_text("#table-status")
    assert "The table has ended" in vera.inner_text("#table-end")
    # ended at once, unrated: the game is annulled, so no bot task plays it on
    ended = platform_server.django(
        "import json\nfrom tables.models import Game, Table\n"
        f"t = Table.objects.get(pk={table})\ng = Game.objects.filter(table=t).latest('number')\n"
        "print(json.dumps({'table': t.status, 'game': g.status, 'annulled': g.annulled}))"
    )
    assert ended == {"table": "aborted", "game": "aborted", "annulled": True}
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems
