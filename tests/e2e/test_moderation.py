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
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

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
    # signed out, he appeals from the ban page itself (once: the page then says it was received)
    boris.fill('.appeal-form textarea[name="text"]', "I lost my temper; it will not happen again")
    boris.click('.appeal-form button[type="submit"]')
    boris.wait_for_selector(".appeal-sent")
    boris.goto(f"{url}/accounts/login/")
    boris.fill('input[name="login"]', names[1])
    boris.fill('input[name="password"]', PASSWORD)
    boris.click('form button[type="submit"]:not(.link)')
    boris.wait_for_selector("text=Your appeal was received")
    assert boris.locator(".appeal-form").count() == 0

    # the audit log lists both actions, by the moderator, against boris
    mod.goto(f"{url}/admin/moderation/auditentry/?q={names[1]}")
    log = mod.inner_text("#result_list")
    assert "Muted" in log and "Banned" in log and f"mod{tag}" in log

    shot = artifacts_dir() / "moderation-admin.png"
    mod.screenshot(path=str(shot), full_page=True)
    boris.screenshot(path=str(artifacts_dir() / "moderation-banned.png"), full_page=True)
    for ctx in contexts:
        ctx.close()


def admin_log_in(context, url: str, name: str):
    page = context.new_page()
    page.goto(f"{url}/admin/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click('input[type="submit"]')
    page.wait_for_url(re.compile(r"/admin/$"))
    return page


def report_from_table(page, name: str, text: str) -> None:
    page.click("details.report-box summary")
    page.select_option('.report-form select[name="reported"]', name)
    page.select_option('.report-form select[name="reason"]', "abuse")
    page.fill('.report-form textarea[name="text"]', text)
    page.click('.report-form button[type="submit"]')
    page.wait_for_selector("text=your report was received")
    page.wait_for_selector(".live-table.ws-open")


def test_a_moderators_day(browser, platform_server):
    """Two players report a third from their table; the moderator mutes him from the inbox with his last lines
    hidden (gone from the open table pages at once); both reporters are told; the muted player appeals, the
    moderator reduces the mute and the player is told; a second moderator cannot sanction the first."""
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"ann{tag}", f"bob{tag}", f"cid{tag}"]
    cid = names[2]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    first = platform_server.django(MODERATOR.format(name=f"moda{tag}", password=PASSWORD))["moderator"]
    second = platform_server.django(MODERATOR.format(name=f"modb{tag}", password=PASSWORD))["moderator"]

    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(5)]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
    pages = [log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=False)]
    p_ann, p_bob, p_cid = pages

    # a three-seat table: ann creates it, bob and cid join
    p_ann.goto(f"{url}/play/new/?game=durak")
    p_ann.select_option('select[name="seats"]', "3")
    p_ann.select_option('select[name="turn_seconds"]', "120")
    p_ann.click('button:has-text("Create and sit down")')
    p_ann.wait_for_url(re.compile(r"/play/\d+/$"))
    table = int(re.search(r"/play/(\d+)/$", p_ann.url).group(1))
    for guest in (p_bob, p_cid):
        guest.goto(f"{url}/play/{table}/")
        guest.click('button:has-text("Join (first free seat)")')
    for page in pages:
        page.wait_for_url(f"**/tables/{table}/")
        page.wait_for_selector(".live-table.ws-open")

    # cid insults them; everybody sees it
    chat(p_cid, "you are all idiots")
    chat(p_cid, "losers, the lot of you")
    chat(p_ann, "please stop")
    for page in (p_ann, p_bob):
        page.wait_for_selector('#chat-lines-players .chat-line:has-text("losers, the lot of you")')
        page.wait_for_selector('#chat-lines-players .chat-line:has-text("please stop")')

    report_from_table(p_ann, cid, "insults in the chat")
    report_from_table(p_bob, cid, "he keeps insulting us")

    # the moderator's inbox: both reports about cid on top, open
    mod = admin_log_in(contexts[3], url, first)
    mod.goto(f"{url}/admin/moderation/report/")
    rows = mod.locator("#result_list tbody tr")
    assert rows.count() >= 2
    for i in range(2):
        assert cid in rows.nth(i).inner_text() and "Open" in rows.nth(i).inner_text()
    mod.screenshot(path=str(artifacts_dir() / "moderation-inbox.png"), full_page=True)

    # from the report: mute for an hour, his lines of the last hour hidden (ticked for an abuse report)
    rows.first.locator("th a").first.click()
    mod.wait_for_selector("#report-detail")
    assert "you are all idiots" in mod.inner_text("#report-chat")
    assert "Report #" in mod.input_value('#act-form textarea[name="reason"]')  # prefilled from the report
    assert mod.is_checked('#act-form input[name="hide"]')
    mod.fill('#act-form textarea[name="reason"]', "insulting the table")
    mod.select_option('#act-form select[name="mute"]', "1h")
    mod.click('#act-form button[value="mute"]')
    mod.wait_for_selector(".messagelist .success")
    assert "Resolved" in mod.inner_text("#report-detail .report-status")

    # the open table pages lose his lines at once, and keep the others'
    for page in (p_ann, p_bob, p_cid):
        page.wait_for_selector('#chat-lines-players .chat-line:has-text("idiots")', state="detached")
        page.wait_for_selector('#chat-lines-players .chat-line:has-text("losers")', state="detached")
        assert page.locator('#chat-lines-players .chat-line:has-text("please stop")').count() == 1
    p_ann.reload()
    p_ann.wait_for_selector(".live-table.ws-open")
    assert p_ann.locator('#chat-lines-players .chat-line:has-text("idiots")').count() == 0

    # both reporters are told: the bell, the notice, their reports page
    for page in (p_ann, p_bob):
        page.wait_for_selector("#bell.unread")
        notices = page.context.new_page()
        notices.goto(f"{url}/notifications/")
        assert "muted" in notices.inner_text(".note-list") and cid.title() in notices.inner_text(".note-list")
        notices.goto(f"{url}/reports/")
        assert "a moderator muted the player" in notices.inner_text(".my-reports")
        notices.close()

    # cid's next line is refused, and he is told how to appeal
    chat(p_cid, "whatever")
    p_cid.wait_for_selector('#table-error:has-text("appeal")')
    reports = p_cid.context.new_page()
    reports.goto(f"{url}/reports/")
    reports.click("#my-sanctions details.appeal-box summary")
    reports.fill('#my-sanctions textarea[name="text"]', "I was provoked, an hour is a lot")
    reports.click('#my-sanctions .appeal-form button[type="submit"]')
    reports.wait_for_selector("text=Your appeal was sent")
    assert reports.locator("#my-sanctions details.appeal-box").count() == 0  # once per sanction

    # the appeal is in the inbox, tied to the mute's audit row; the moderator reduces it to 10 minutes
    mod.goto(f"{url}/admin/moderation/report/")
    mod.wait_for_selector("#open-appeals")
    mod.screenshot(path=str(artifacts_dir() / "moderation-inbox-appeal.png"), full_page=True)
    mod.click(f'#open-appeals tr:has-text("{cid}") a')
    mod.wait_for_selector("#appeal-detail")
    assert "I was provoked" in mod.inner_text("#appeal-text")
    assert "insulting the table" in mod.inner_text("#appeal-audit")
    soon = mod.evaluate(
        "() => { const d = new Date(Date.now() + 10 * 60000); return d.toISOString().slice(0, 16); }"
    )  # the server reads the admin's times in UTC
    mod.fill('#appeal-form textarea[name="answer"]', "Fair: ten minutes is enough this time.")
    mod.fill('#appeal-form input[name="until"]', soon)
    mod.click('#appeal-form button[value="reduce"]')
    mod.wait_for_selector("#appeal-answer")
    assert "Reduced" in mod.inner_text("#appeal-answer")

    # the player is told
    p_cid.wait_for_selector("#bell.unread")
    reports.goto(f"{url}/notifications/")
    assert "reduced your sanction" in reports.inner_text(".note-list")
    reports.goto(f"{url}/reports/")
    assert "Your appeal was answered: Reduced." in reports.inner_text("#my-sanctions")
    reports.set_viewport_size({"width": 390, "height": 844})  # a phone
    reports.screenshot(path=str(artifacts_dir() / "moderation-my-reports-phone.png"), full_page=True)
    assert reports.evaluate("document.documentElement.scrollWidth") <= 390

    # the player's moderation view: the mute, the reports, the hidden lines
    mod.goto(f"{url}/admin/moderation/player/?q={cid}")
    mod.click(f'#result_list a:has-text("{cid}")')
    mod.wait_for_selector("#player-overview")
    assert "Chat mute" in mod.inner_text("#player-sanctions")
    assert mod.locator("#player-chat tr.hidden-line").count() == 2
    assert mod.locator("#reports-against tbody tr").count() == 2
    mod.screenshot(path=str(artifacts_dir() / "moderation-player-view.png"), full_page=True)

    # a second moderator cannot sanction the first
    mod_b = admin_log_in(contexts[4], url, second)
    mod_b.goto(f"{url}/admin/moderation/player/?q={first}")
    mod_b.click(f'#result_list a:has-text("{first}")')
    mod_b.wait_for_selector("#act-form")
    mod_b.fill('#act-form textarea[name="reason"]', "revenge")
    mod_b.click('#act-form button[value="ban"]')
    mod_b.wait_for_selector('.messagelist .error:has-text("Only a superuser")')
    assert mod_b.locator(".active-sanction").count() == 0
    mod.goto(f"{url}/admin/")  # the first moderator still works
    assert mod.locator("#site-name").count() == 1
    for ctx in contexts:
        ctx.close()


#: a settle form as the browser holds it: its fields' values, whether it would submit, and its panel's key
SETTLE_STATE = """form => ({
    values: Array.from(form.querySelectorAll("input[name=entry]"), el => el.value),
    valid: form.checkValidity(),
    connected: form.isConnected,
    key: (form.closest("#organizer-panel") || {dataset: {}}).dataset.key,
})"""

EVENT = """
import json
from datetime import timedelta
from allauth.account.models import EmailAddress
from django.utils import timezone
from accounts.models import User
from moderation.services import moderator_add
from tournaments import services
from tournaments.models import Board
org, p1, p2, mod = names = {names!r}
users = {{}}
for name in names:
    user = User.objects.create_user(name, name + "@example.com", {password!r})
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    users[name] = user
services.organizer_add(users[org])
moderator_add(users[mod])
now = timezone.now()
t = services.tournament_create(
    organizer=users[org], game="durak", name="Abort night {tag}", table_size=2, format="swiss", rounds=1,
    games_per_round=1, fill="bots", advance=1, min_players=2, max_players=8, options={{}}, match_options={{}},
    turn_seconds=300, registration_opens=now - timedelta(minutes=5), registration_closes=now + timedelta(hours=1),
    starts_at=now + timedelta(hours=1),
)
for name in (p1, p2):
    services.registration_join(tournament_id=t.pk, user=users[name])
services.tournament_next_round(tournament_id=t.pk, user=users[org])
board = Board.objects.get(round__tournament=t)
print(json.dumps({{"event": t.get_absolute_url(), "table": board.table_id}}))
"""


def test_a_moderator_stops_a_tournament_table_and_its_organizer_settles_it(browser, platform_server):
    """The round must not hang on a table a moderator stopped: its player is told why, the organizer is asked for
    its result on the event page (on his phone), and entering it ends the round."""
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    org, p1, p2, mod_name = (f"{who}{tag}" for who in ("org", "pia", "pol", "mod"))
    made = platform_server.django(EVENT.format(names=[org, p1, p2, mod_name], password=PASSWORD, tag=tag))
    contexts = [
        browser.new_context(),
        browser.new_context(),
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
    ]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
    player = log_in(contexts[0], url, p1)
    player.goto(f"{url}/tables/{made['table']}/")
    player.wait_for_selector(".live-table.ws-open")

    mod = admin_log_in(contexts[1], url, mod_name)
    mod.goto(f"{url}/admin/tables/table/?q={made['table']}")
    mod.check(f'#result_list input[name="_selected_action"][value="{made["table"]}"]')
    mod.select_option('select[name="action"]', "abort")
    mod.click('button[name="index"]')
    mod.fill('textarea[name="reason"]', "the two seats share one address and one hand")
    mod.click('button:has-text("Confirm")')
    mod.wait_for_selector(".messagelist .success")

    # the player's open page: stopped, and why the event's result waits
    player.wait_for_selector("#table-status .aborted")
    player.wait_for_selector('#event-note:has-text("A moderator stopped this table")')

    organizer = log_in(contexts[2], url, org)
    organizer.goto(url + made["event"])
    form = organizer.locator("form.settle")
    assert "A moderator stopped table 1: enter its result" in form.inner_text()
    entries = form.locator('input[name="entry"]')
    entries.nth(0).fill("2")
    entries.nth(1).fill("1")
    # the POST's answer, awaited first: a failure then says whether the click sent it and how it was answered
    try:
        with organizer.expect_response(lambda r: r.request.method == "POST" and "/settle" in r.url) as posted:
            form.locator('button:has-text("Record the result")').click()
    except PlaywrightTimeoutError:  # not sent: what the form held then, and whether the browser found it valid
        print("settle form:", form.evaluate(SETTLE_STATE))
        raise
    assert posted.value.status == 302, posted.value.status
    organizer.wait_for_selector("text=The table's result is recorded.")
    assert organizer.locator("form.settle").count() == 0
    organizer.wait_for_selector("#podium")  # the round, the last, is over: the event finished, live on his page
    width = organizer.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the event page is {width} px wide on a phone"
    organizer.screenshot(path=str(artifacts_dir() / "moderator-stopped-event-phone.png"), full_page=True)

    player.reload()
    player.wait_for_selector('#event-note:has-text("the organizer entered its result")')
    for ctx in contexts:
        ctx.close()
