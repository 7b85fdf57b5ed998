"""Reliability in the browser: a table's creator asks for players who finish 90% of their games; a player who
walks out of too many is refused at the waiting room with his own figures (on a phone, in Russian), a steady one
sits down, and at the table each seat shows its player's reliability."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, log_in

pytestmark = pytest.mark.slow

#: the walker finished 30 of his last 40 games with other people, the steady player 48 of 50
TALLIES = """
import json
from accounts.models import User
from reliability.models import Tally
names = {names!r}
Tally.objects.create(user=User.objects.get(username=names[1]), games=40, finished=30, timed_out=8)
Tally.objects.create(user=User.objects.get(username=names[2]), games=50, finished=48, timed_out=1)
print(json.dumps({{"ok": True}}))
"""

SEATED = """
import json
from tables.models import Seat
print(json.dumps({{"seated": list(Seat.objects.filter(table_id={table}).values_list("user__username", flat=True))}}))
"""


def test_a_creator_asks_for_reliable_players_and_a_walker_is_refused_on_his_phone(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"rlhost{tag}", f"rlwalker{tag}", f"rlsteady{tag}"]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    platform_server.django(TALLIES.format(names=names))
    problems: list[str] = []
    laptop = {"viewport": {"width": 1100, "height": 900}}
    phone = {
        "viewport": {"width": 390, "height": 844},
        "locale": "ru-RU",
        "extra_http_headers": {"Accept-Language": "ru"},
    }
    contexts = [browser.new_context(**laptop), browser.new_context(**phone), browser.new_context(**laptop)]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    host, walker, steady = (log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True))

    # the host creates a two-seat table for players who finish at least 90% of their games
    host.goto(f"{url}/play/new/?game=durak")
    host.select_option('select[name="seats"]', "2")
    host.select_option('select[name="turn_seconds"]', "120")
    host.select_option('select[name="min_reliability"]', "90")
    host.click('button:has-text("Create and sit down")')
    host.wait_for_url(re.compile(r"/play/\d+/$"))
    table = int(re.search(r"/play/(\d+)/$", host.url).group(1))
    assert "players who finish at least 90% of their games" in host.inner_text(".table-requirement")

    # the walker sees the requirement in the lobby on his phone, and is refused with his own figures
    walker.goto(f"{url}/play/?game=durak")
    card = walker.locator(f'.lobby-table[data-table="{table}"]')
    assert "90%" in card.locator(".tag.requirement").inner_text()
    card.locator("a").first.click()
    walker.wait_for_url(f"**/play/{table}/")
    walker.click("form[action$='/join/'] button >> nth=-1")
    refusal = walker.locator(".messages .error")
    refusal.wait_for()
    text = refusal.inner_text()
    assert "90%" in text and "75%" in text and "40" in text and "This table" not in text  # in Russian
    walker.screenshot(path=str(artifacts_dir() / "reliability-refused-phone.png"), full_page=True)
    width = walker.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the refusal widens the phone's page to {width}px"
    assert platform_server.django(SEATED.format(table=table))["seated"] == [names[0], None]

    # the steady player sits down; both land at the table, whose seats show their reliability
    steady.goto(f"{url}/play/{table}/")
    steady.click('button:has-text("Join (first free seat)")')
    for page in (steady, host):
        page.wait_for_url(f"**/tables/{table}/")
        page.wait_for_selector(".live-table.ws-open")
    seat = host.locator('#table-seats li.seat[data-seat="1"]')
    assert seat.locator(".badge.reliability:not(.timeouts)").inner_text() == "finishes 96%"
    assert seat.locator(".badge.reliability.timeouts").inner_text() == "timeouts 2%"
    assert host.locator('#table-seats li.seat[data-seat="0"] .badge.reliability.new').count() == 1
    host.screenshot(path=str(artifacts_dir() / "reliability-table.png"), full_page=True)
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems
