"""Two people in two browsers: A befriends B, sees him online, challenges him; B accepts from the
notification; both land at one table and play the first moves; "your turn" reaches B's other tab."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, log_in, play_one, to_act, wait_move

pytestmark = pytest.mark.slow


def friend_row(page, username: str):
    return page.locator(f'#friends-list li[data-user="{username}"]')


def test_befriend_see_online_challenge_accept_and_play(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    a_name, b_name = f"anna{tag}", f"bogdan{tag}"
    platform_server.django(SETUP.format(names=[a_name, b_name], password=PASSWORD))

    contexts = [browser.new_context(viewport={"width": 1000, "height": 900}) for _ in range(2)]
    problems: list[str] = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    a, b = (log_in(ctx, url, name) for ctx, name in zip(contexts, (a_name, b_name), strict=True))
    for page in (a, b):
        page.wait_for_selector("body.presence-open")

    # A asks from B's profile; B, on another page, is told at once and accepts from the notification
    a.goto(f"{url}/u/{b_name}/")
    a.click('button[value="add"]')
    a.wait_for_selector("text=Friend request sent")
    toast = b.locator(".toast.note-friend_request")
    toast.wait_for()
    assert b.inner_text("#bell-count") == "1"
    toast.locator("a.toast-open").click()
    b.wait_for_url("**/friends/")
    b.click('li.request button[value="accept"]')
    b.wait_for_selector(f'#friends-list li[data-user="{a_name}"]')
    b.wait_for_selector("body.presence-open")  # the accept reloaded B's page: his tab is online again

    # A sees B online (B's tab is on the friends page) and challenges him from the list
    a.goto(f"{url}/friends/")
    row = friend_row(a, b_name)
    row.wait_for()
    assert "offline" not in row.inner_text()
    assert row.locator(".dot.online").count() == 1
    row.locator("text=Challenge").click()
    a.click("text=Durak")
    a.select_option('select[name="seats"]', "2")
    a.select_option('select[name="turn_seconds"]', "120")
    a.click('button:has-text("Send the challenge")')
    a.wait_for_url("**/challenges/*/")
    a.wait_for_selector("body.presence-open")

    # B accepts from the notification; both land at the new table
    challenge = b.locator(".toast.note-challenge")
    challenge.wait_for()
    assert a_name.title() in challenge.inner_text()
    challenge.locator("a.toast-open").click()
    b.wait_for_url("**/challenges/*/")
    b.click('button:has-text("Accept")')
    for page in (b, a):
        page.wait_for_url("**/tables/*/", timeout=TIMEOUT)
        page.wait_for_selector(".live-table.ws-open")
    assert a.url == b.url
    pages = [a, b]

    # the first moves, by clicking; the waiting player's other tab hears "your turn"
    mover = to_act(pages)
    waiting = b if mover is a else a
    other_tab = waiting.context.new_page()
    other_tab.goto(f"{url}/friends/")
    other_tab.wait_for_selector("body.presence-open")
    play_one(mover)
    wait_move(pages, 1)
    turn = other_tab.locator(".toast.turn")
    turn.wait_for()
    assert "Your turn" in turn.inner_text() and other_tab.title().startswith("●")
    play_one(to_act(pages))
    wait_move(pages, 2)

    # the sound switch is remembered
    switch = other_tab.locator("#sound-toggle")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    other_tab.reload()
    other_tab.wait_for_selector("body.presence-open")
    assert other_tab.locator("#sound-toggle").get_attribute("aria-pressed") == "false"

    a.screenshot(path=str(artifacts_dir() / "social-table.png"), full_page=True)
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


def test_profile_edit_and_the_watch_list(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    me, watcher = f"vera{tag}", f"watcher{tag}"
    platform_server.django(SETUP.format(names=[me, watcher], password=PASSWORD))
    contexts = [browser.new_context() for _ in range(2)]
    problems: list[str] = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    page, other = (log_in(ctx, url, name) for ctx, name in zip(contexts, (me, watcher), strict=True))

    page.goto(f"{url}/profile/edit/")
    page.fill('input[name="display_name"]', "x" * 41)  # the browser's maxlength stops typing at 40
    assert len(page.input_value('input[name="display_name"]')) == 40
    page.fill('input[name="display_name"]', "Vera the Ace")
    page.fill('textarea[name="bio"]', "Transfer durak, evenings.")
    page.check('input[name="avatar"][value="crown"]')
    page.select_option('select[name="country"]', "UA")
    page.click('button:has-text("Save")')
    page.wait_for_url(f"**/u/{me}/")
    assert page.inner_text("h1") == "Vera the Ace"
    assert "Transfer durak, evenings." in page.inner_text(".social-profile")
    assert page.locator('.social-profile img[src$="avatars/crown.svg"]').count() == 1
    assert "\U0001f1fa\U0001f1e6" in page.inner_text(".social-profile")

    # she starts a game against bots; the other player finds it on the Play page and watches in one click
    page.goto(f"{url}/play/")
    page.click('.lobby-bots-form button[type="submit"]')
    page.wait_for_url("**/tables/*/")
    table = page.url.rstrip("/").rsplit("/", 1)[1]
    other.goto(f"{url}/u/{me}/")
    assert f"table #{table}" in other.inner_text(".playing-now")
    other.goto(f"{url}/play/")
    other.click(f'.live-game[data-table="{table}"] a:has-text("Watch")')
    other.wait_for_url(f"**/tables/{table}/")
    other.wait_for_selector(".live-table.ws-open")
    assert "You are watching" in other.inner_text(".live-table")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


LONG_NAME = """
import json
from accounts.models import User
changed = User.objects.filter(username={username!r}).update(display_name={display!r})
print(json.dumps(changed))
"""


@pytest.mark.parametrize("language", ["ru-RU", "uk-UA"])
def test_a_small_phone_shows_a_long_name_and_the_language_whole(browser, platform_server, language):
    """On a 360 px phone (the commonest Android width) a profile's long name wraps inside its card rather than
    pushing the page sideways, and the top bar leaves the language menu room for its whole name."""
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    name = f"kostya{tag}"
    display = "Konstantinopolskaya-Aleksandrovna"
    platform_server.django(SETUP.format(names=[name], password=PASSWORD))
    platform_server.django(LONG_NAME.format(username=name, display=display))
    ctx = browser.new_context(viewport={"width": 360, "height": 800}, locale=language, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(TIMEOUT)
    page = log_in(ctx, url, name)
    page.goto(f"{url}/u/{name}/")
    heading = page.locator(".profile-head h1")
    assert heading.inner_text() == display
    card = page.locator("article.profile").bounding_box()
    box = heading.bounding_box()
    assert card is not None and box is not None and box["x"] + box["width"] <= card["x"] + card["width"], (box, card)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # the menu is at least as wide as its chosen language's name drawn in its own font, and its arrow beside it
    room = page.evaluate(
        """() => { const s = document.getElementById('language-select');
        const c = document.createElement('canvas').getContext('2d'); c.font = getComputedStyle(s).font;
        return s.clientWidth - c.measureText(s.selectedOptions[0].text).width; }"""
    )
    assert room >= 14, f"the language menu is {room:.0f} px short of its name and arrow"
    page.screenshot(path=str(artifacts_dir() / f"profile-long-name-360-{language}.png"), full_page=True)
    ctx.close()
