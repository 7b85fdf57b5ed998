"""Chat, a report and a moderator's mute and ban, in three browsers against the whole platform.

Two players chat at a Durak table; one reports the other from the table page; a
moderator (Moderators group, not superuser) works the report queue in the admin,
mutes and then bans the reported player; the banned player's open page says he
was removed, a bot plays his seat on, and the audit log lists both actions.
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, create_and_join, log_in, move_of, play_one

pytestmark = pytest.mark.slow

MODERATOR = """
import json
from accounts.models import User
from moderation.services import moderator_add
user = User.objects.create_user({name!r}, {name!r} + "@example.com", {password!r})
moderator_add(user)
print(json.dumps({{"moderator": user.username, "superuser": user.is_superuser}}))
"""


def chat(page, text: str) -> None:
    page.fill('#table-chat input[name="text"]', text)
    page.click('#table-chat .chat-form button[type="submit"]')


def test_report_mute_ban_from_the_admin(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"alice{tag}", f"boris{tag}"]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    made = platform_server.django(MODERATOR.format(name=f"mod{tag}", password=PASSWORD))
    assert made["superuser"] is False

    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(3)]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
    alice, boris = (log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=False))

    # the lobby chat on the Play page, over its own socket
    for page in (alice, boris):
        page.goto(f"{url}/play/")
        page.wait_for_selector("#lobby-chat.ws-open")
    alice.fill('#lobby-chat input[name="text"]', "anyone for durak?")
    alice.click('#lobby-chat .chat-form button[type="submit"]')
    boris.wait_for_selector('#chat-lines-lobby .chat-line:has-text("anyone for durak?")')
    assert alice.input_value('#lobby-chat input[name="text"]') == ""

    table = create_and_join(alice, boris, url)

    # the players chat over the table socket; a quick phrase is one click
    chat(boris, "you are so slow <b>")
    alice.wait_for_selector('#chat-lines-players .chat-line:has-text("you are so slow <b>")')
    alice.click('#table-chat button[data-phrase="gg"]')
    boris.wait_for_selector('#chat-lines-players .chat-line:has-text("Good game")')

    # alice reports boris from the table page
    alice.click("details.report-box summary")
    alice.select_option('.report-form select[name="reported"]', names[1])
    alice.select_option('.report-form select[name="reason"]', "abuse")
    alice.fill('.report-form textarea[name="text"]', "insults in the chat")
    alice.click('.report-form button[type="submit"]')
    alice.wait_for_selector("text=your report was received")
    alice.wait_for_url(f"**/tables/{table}/")
    alice.wait_for_selector(".live-table.ws-open")

    # the moderator logs into the admin and opens the queue
    mod = contexts[2].new_page()
    mod.goto(f"{url}/admin/login/")
    mod.fill("#id_username", f"mod{tag}")
    mod.fill("#id_password", PASSWORD)
    mod.click('input[type="submit"]')
    mod.wait_for_url(re.compile(r"/admin/$"))
    mod.goto(f"{url}/admin/moderation/report/")
    row = mod.locator("#result_list tbody tr", has_text=names[1])
    assert row.count() == 1 and "Open" in row.inner_text()
    row.locator("th a, td a").first.click()
    mod.wait_for_selector("#report-detail")
    assert "insults in the chat" in mod.inner_text("#report-detail")
    assert "you are so slow" in mod.inner_text("#report-detail")  # the chat frozen with the report
    mod.click("#reported-player")
    mod.wait_for_selector("#act-form")

    # mute: boris's next line is refused on his page
    mod.fill('#act-form textarea[name="reason"]', "abusive chat")
    mod.select_option('#act-form select[name="mute"]', "10m")
    mod.click('#act-form button[value="mute"]')
    mod.wait_for_selector('.active-sanction:has-text("Chat mute")')
    chat(boris, "still here")
    boris.wait_for_selector('#table-error:has-text("muted")')
    assert alice.locator('#chat-lines-players .chat-line:has-text("still here")').count() == 0

    # ban: boris's open page says he was removed; his socket is closed
    mod.fill('#act-form textarea[name="reason"]', "kept insulting after the mute")
    mod.click('#act-form button[value="ban"]')
    mod.wait_for_selector('.active-sanction:has-text("Ban")')
    boris.wait_for_selector('#table-error:has-text("removed you")')
    boris.wait_for_selector(".live-table.ws-closed")
    assert "banned" in boris.inner_text("#table-error")

    # alice sees boris away, and a bot plays his seat on
    alice.wait_for_selector("#table-seats .is-away")
    for _ in range(20):
        if alice.locator('#table-log li[data-by="stand-in"]').count():
            break
        if alice.get_attribute("#table-play", "data-my-turn") == "1":
            before = move_of(alice)
            play_one(alice)
            alice.wait_for_selector(f'#table-status:not([data-move="{before}"])')
        else:
            # boris's turn: only the stand-in bot can make it
            alice.wait_for_function(
                "document.querySelector('#table-log li[data-by=\"stand-in\"]')"
                " || document.querySelector('#table-play.is-turn') !== null",
                # the stand-in's task, or beat's sweeper if that task lost a race with the ban's locks
                timeout=4 * TIMEOUT,
            )
    assert alice.locator('#table-log li[data-by="stand-in"]').count()

    boris.screenshot(path=str(artifacts_dir() / "moderation-removed.png"), full_page=True)
    # a reload: boris is signed out and told until when
    boris.goto(f"{url}/play/")
    assert "banned" in boris.inner_text("main")

    # the audit log lists both actions, by the moderator, against boris
    mod.goto(f"{url}/admin/moderation/auditentry/?q={names[1]}")
    log = mod.inner_text("#result_list")
    assert "Muted" in log and "Banned" in log and f"mod{tag}" in log

    shot = artifacts_dir() / "moderation-admin.png"
    mod.screenshot(path=str(shot), full_page=True)
    boris.screenshot(path=str(artifacts_dir() / "moderation-banned.png"), full_page=True)
    for ctx in contexts:
        ctx.close()
