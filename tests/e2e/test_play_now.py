"""'Play now' in three browsers: a player joins the 2-seat Durak queue and leaves it (on a phone); two others click
Play now and both land at the same new table (the first one's page follows on its own); the one who left is not
seated."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, log_in

pytestmark = pytest.mark.slow

SEATED = """
import json
from tables.models import Seat
from lobbies.models import Seek
names = {names!r}
print(json.dumps({{n: [list(Seat.objects.filter(user__username=n).values_list("table_id", flat=True)),
                      Seek.objects.filter(user__username=n).exists()] for n in names}}))
"""


def play_now(page, url: str, seats: str = "2") -> None:
    page.goto(f"{url}/play/?game=durak")
    page.wait_for_selector("body.presence-open")
    form = page.locator("#play-now form.play-now-form")
    assert form.locator('select[name="game"]').input_value() == "durak"
    form.locator('select[name="seats"]').select_option(seats)
    form.locator('button:has-text("Play now")').click()


def test_two_players_click_play_now_and_meet_at_one_table_the_one_who_left_is_not_seated(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"pnanna{tag}", f"pnboris{tag}", f"pncyril{tag}"]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    sizes = [{"width": 1000, "height": 900}, {"width": 1000, "height": 900}, {"width": 390, "height": 844}]
    contexts = [browser.new_context(viewport=size) for size in sizes]
    problems: list[str] = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    a, b, c = (log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True))

    # C queues on his phone, sees himself counted, and leaves
    play_now(c, url)
    c.wait_for_selector("text=You are in the queue")
    assert "1 waiting" in c.inner_text("#play-now-queues")
    c.screenshot(path=str(artifacts_dir() / "play-now-waiting-phone.png"), full_page=True)
    c.click('button:has-text("Leave the queue")')
    c.wait_for_selector("text=You left the queue.")
    assert "Leave the queue" not in c.inner_text("#play-now")

    # A queues and waits on the Play page; B's click completes the pair: B goes to the table, A's page follows
    play_now(a, url)
    a.wait_for_selector("text=You are in the queue")
    a.wait_for_selector("body.presence-open")
    play_now(b, url)
    for page in (b, a):
        page.wait_for_url("**/tables/*/", timeout=TIMEOUT)
        page.wait_for_selector(".live-table.ws-open")
    assert a.url == b.url
    # each seat shows its player's rating for this game (provisional: nobody has played it yet) and his
    # reliability ("new": no game with other people yet), on both players' pages
    for page in (a, b):
        for index in (0, 1):
            seat = page.locator(f'#table-seats li.seat[data-seat="{index}"]')
            assert seat.locator(".badge.rating").inner_text().startswith("1000")
            assert seat.locator(".badge.rating.provisional").count() == 1
            assert seat.locator(".badge.reliability.new").inner_text() == "new"
    a.screenshot(path=str(artifacts_dir() / "play-now-table.png"), full_page=True)

    state = platform_server.django(SEATED.format(names=names))
    table = int(a.url.rstrip("/").rsplit("/", 1)[1])
    assert state[names[0]] == [[table], False] and state[names[1]] == [[table], False]
    assert state[names[2]] == [[], False]  # the one who left is neither seated nor waiting
    assert "/play/" in c.url

    # C's Play page shows nobody waiting any more
    c.reload()
    assert "Nobody is waiting" in c.inner_text("#play-now-queues")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


PLAYED = """
import json, random
from allauth.account.models import EmailAddress
from accounts.models import User
from scoring.models import MatchScore
from tests.platform.tables.factories import play_randomly, started_table
users = []
for name in {names!r}:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    users.append(user)
play_randomly(started_table("durak", 2, players=users)[2], random.Random(11))
print(json.dumps({{u.username: MatchScore.objects.get(user=u).place for u in users}}))
"""


def test_after_a_game_each_sees_their_record_on_the_others_profile(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    first, second = f"hhvera{tag}", f"hhgleb{tag}"
    places = platform_server.django(PLAYED.format(names=[first, second], password=PASSWORD))
    first_ahead, second_ahead = int(places[first] < places[second]), int(places[second] < places[first])
    problems: list[str] = []
    # the second player on a phone, in Russian; the first on a laptop, in English
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU")
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    for ctx in (phone, laptop):
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    g, v = log_in(phone, url, second), log_in(laptop, url, first)

    g.goto(f"{url}/u/{first}/")
    record = g.locator("section.head-to-head")
    record.wait_for()
    text = record.inner_text()
    assert f"Вы и {first.title()}" in text and "Дурак" in text, text
    assert "Сыграли вместе: 1" in text
    assert f"вы закончили выше: {second_ahead}" in text and f"{first.title()} закончил(а) выше: {first_ahead}" in text  # noqa: RUF001
    box = record.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # fits the phone's width
    # and the whole profile does: the game history scrolls in its own box, its hidden "Replay" heading with it
    width = g.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the profile is {width} px wide on a phone"
    g.screenshot(path=str(artifacts_dir() / "head-to-head-phone-ru.png"), full_page=True)

    v.goto(f"{url}/u/{second}/")
    text = v.locator("section.head-to-head").inner_text()
    assert f"You and {second.title()}" in text and "Played together: 1" in text
    assert f"you finished ahead: {first_ahead}" in text
    v.goto(f"{url}/u/{first}/")  # his own profile: no record against himself
    v.wait_for_selector("article.profile")
    assert v.locator("section.head-to-head").count() == 0
    for ctx in (phone, laptop):
        ctx.close()
    assert problems == [], problems
