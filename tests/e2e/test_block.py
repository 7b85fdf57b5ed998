"""A blocks B from B's profile while both sit at a table: B's chat lines leave A's open table page at once and
stay hidden on reload and in the lobby chat; B still reads his own lines and A's (nothing tells him); B cannot
sit down at A's next table, and A's phone screen shows the same."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, create_and_join, log_in

pytestmark = pytest.mark.slow


def say(page, text: str, where: str = "#table-chat") -> None:
    box = page.locator(f"{where} form.chat-form input[name=text]").first
    box.fill(text)
    box.press("Enter")


def lines(page, where: str) -> list[str]:
    return [t.strip() for t in page.locator(f"{where} .chat-line .chat-text").all_inner_texts()]


def wait_line(page, where: str, text: str) -> None:
    page.locator(f"{where} .chat-line .chat-text", has_text=text).first.wait_for(timeout=TIMEOUT)


def test_a_block_hides_his_chat_on_the_open_table_page_on_reload_and_in_the_lobby(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    a_name, b_name = f"alla{tag}", f"boris{tag}"
    platform_server.django(SETUP.format(names=[a_name, b_name], password=PASSWORD))
    problems: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1000, "height": 900}) for _ in range(2)]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    a, b = (log_in(ctx, url, name) for ctx, name in zip(contexts, (a_name, b_name), strict=True))
    create_and_join(a, b, url)
    players = "#chat-lines-players"

    say(b, "hello before the block")
    wait_line(a, players, "hello before the block")

    # A blocks B from B's profile, in another tab; his table page stays open
    profile = a.context.new_page()
    profile.goto(f"{url}/u/{b_name}/")
    profile.click('button[value="block"]')
    profile.wait_for_selector("text=is blocked")
    # his name on the profile and at the seat is B's real account, isolated from the text around it
    assert a.locator(f'.seat-name a[href="/u/{b_name}/"] bdi').count() == 1

    # the line he said before the block leaves A's open page as well
    a.locator(f'{players} .chat-line[data-sender="{b_name}"]').first.wait_for(state="hidden")

    say(b, "you cannot hide from me")
    wait_line(b, players, "you cannot hide from me")  # B sees his own line: nothing tells him
    say(a, "anyone there?")
    wait_line(a, players, "anyone there?")
    wait_line(b, players, "anyone there?")  # and still reads A
    assert "you cannot hide from me" not in lines(a, players)
    a.screenshot(path=str(artifacts_dir() / "block-table-open.png"), full_page=True)

    a.reload()
    a.wait_for_selector(".live-table.ws-open")
    shown = lines(a, players)
    assert "anyone there?" in shown
    assert "you cannot hide from me" not in shown and "hello before the block" not in shown

    # the lobby chat: the same
    for page in (a, b):
        page.goto(f"{url}/play/")
        page.wait_for_selector("#lobby-chat.ws-open")
    lobby = "#chat-lines-lobby"
    say(b, "lobby line from boris", "#lobby-chat")
    wait_line(b, lobby, "lobby line from boris")
    say(a, "lobby marker from alla", "#lobby-chat")
    wait_line(a, lobby, "lobby marker from alla")
    assert "lobby line from boris" not in lines(a, lobby)

    # B cannot sit down at A's next table
    a.goto(f"{url}/play/new/?game=durak")
    a.select_option('select[name="seats"]', "2")
    a.click('button:has-text("Create and sit down")')
    a.wait_for_url(re.compile(r"/play/\d+/$"))
    table = int(re.search(r"/play/(\d+)/$", a.url).group(1))
    b.goto(f"{url}/play/{table}/")
    b.click('button:has-text("Join (first free seat)")')
    b.wait_for_selector("text=You cannot join this table.")
    b.screenshot(path=str(artifacts_dir() / "block-join-refused.png"), full_page=True)

    # a phone: A's lobby chat still without B's line
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.set_default_timeout(TIMEOUT)
    small = log_in(phone, url, a_name)
    small.goto(f"{url}/play/")
    wait_line(small, lobby, "lobby marker from alla")
    assert "lobby line from boris" not in lines(small, lobby)
    small.screenshot(path=str(artifacts_dir() / "block-lobby-phone.png"), full_page=True)
    assert not problems, problems
    for ctx in (*contexts, phone):
        ctx.close()
