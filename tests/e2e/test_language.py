"""A Ukrainian browser gets the table page in Ukrainian; the language switcher turns it Russian, socket included."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, TIMEOUT, log_in
from tests.e2e.test_durak_table import SETUP as DURAK_SETUP

pytestmark = pytest.mark.slow

# two players with verified e-mails at a started two-seat table (the lobby's own pages have their tests)
SETUP = """
import json
from allauth.account.models import EmailAddress
from accounts.models import User
from tests.platform.tables.factories import started_table
users = []
for name in {names!r}:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    users.append(user)
table, _, _ = started_table({game!r}, 2, players=users)
print(json.dumps({{"table": table.pk}}))
"""


def test_the_switcher_turns_the_table_page_russian(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"olena{tag}", f"petro{tag}"]
    table = platform_server.django(SETUP.format(names=names, password=PASSWORD, game="durak"))["table"]

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="uk-UA")
    context.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    context.on("page", lambda page: watch_page(page, problems))
    page = log_in(context, url, names[0])

    # the browser's language by default
    page.goto(f"{url}/tables/{table}/")
    page.wait_for_selector(".live-table.ws-open")
    assert page.get_attribute("html", "lang") == "uk"
    assert "Грати" in page.inner_text("header.topbar")

    # the switcher, on the table page itself: the page comes back Russian, at the same table
    page.select_option("#language-select", "ru")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert page.url.endswith(f"/tables/{table}/")
    page.wait_for_selector(".live-table.ws-open")
    topbar = page.inner_text("header.topbar")
    for word in ("Играть", "Рейтинги", "Турниры", "Друзья", "Профиль", "Выйти"):
        assert word in topbar, topbar
    assert "Leaderboards" not in topbar and "Грати" not in topbar
    chat = page.inner_text("#table-chat")
    assert "Чат" in chat and "Игроки" in chat and "Скрыть чат" in chat, chat
    # the match sheet (shared by every socket of the table) speaks each reader's language: "1 партия", "Дураки"
    sheet = page.inner_text("#table-sheet")
    assert "1 партия" in sheet and "Дураки" in sheet, sheet
    # the table's own words, which the socket draws for this reader: the status, the hand, resigning
    status = page.inner_text("#table-status")
    assert "Ваш ход" in status or "Ждём хода" in status, status
    assert "Ваши карты" in page.inner_text("#table-play") and "Сдаться" in page.inner_text("#table-away")
    board = page.inner_text("#table-board")  # the game's own board and the empty move log
    assert "Козырь" in board and "Колода" in board and "Trump" not in board, board
    assert "Ходов пока нет." in page.inner_text("#table-log")
    assert page.get_attribute('#table-chat input[name="text"]', "placeholder") == "Напишите что-нибудь…"

    # an empty channel says so under its heading, until its first line
    empty = "getComputedStyle(document.getElementById('chat-lines-players'), '::before').content"
    assert page.evaluate(empty) == '"Здесь пока никто ничего не написал."'
    # what the socket renders comes in Russian too: a quick phrase, sent and shown over it
    page.click('#table-chat button[data-phrase="gg"]')
    page.wait_for_selector('#chat-lines-players .chat-line:has-text("Хорошая игра")')
    assert page.evaluate(empty) == "none"
    page.screenshot(path=str(artifacts_dir() / "table-ru.png"), full_page=True)

    # the choice is remembered over the browser's language
    page.goto(f"{url}/")
    assert page.get_attribute("html", "lang") == "ru"
    assert "Славянские карточные игры вживую" in page.inner_text("main")
    assert not problems, problems
    context.close()


def test_a_russian_friend_request_and_challenge_read_as_what_they_do(browser, platform_server):
    """The friends pages' short words that are also words elsewhere ("Open", "Withdraw", "Answer") read as
    the button's action in Russian, not as another page's status or noun."""
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    a_name, b_name = f"anya{tag}", f"boris{tag}"
    platform_server.django(DURAK_SETUP.format(names=[a_name, b_name], password=PASSWORD))
    contexts = [browser.new_context(viewport={"width": 1000, "height": 900}, locale="ru-RU") for _ in range(2)]
    problems: list[str] = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    a, b = (log_in(ctx, url, name) for ctx, name in zip(contexts, (a_name, b_name), strict=True))
    b.wait_for_selector("body.presence-open")

    # A asks from B's profile: the request can be withdrawn ("Отозвать", not a tournament's "Сняться")
    a.goto(f"{url}/u/{b_name}/")
    a.click('button[value="add"]')
    a.wait_for_selector("text=Запрос в друзья отправлен")
    withdraw = a.locator('button[value="remove"]')
    assert withdraw.inner_text() == "Отозвать"
    # B is told at once; the toast's link opens it ("Открыть", not a report's "Открыта")
    toast = b.locator(".toast.note-friend_request")
    toast.wait_for()
    assert toast.locator("a.toast-open").inner_text() == "Открыть"
    # A thinks better of it, from his friends page
    a.goto(f"{url}/friends/")
    a.click('button[value="remove"]:has-text("Отозвать")')
    a.wait_for_selector('button[value="remove"]', state="detached")
    a.goto(f"{url}/u/{b_name}/")
    assert a.locator('button[value="add"]').count() == 1
    b.wait_for_function("document.getElementById('bell-count').textContent === ''")  # nothing waits for him now

    # A challenges B to a rated game: B's friends page offers to answer it ("Ответить", not "Ответ")
    a.goto(f"{url}/u/{b_name}/")
    a.click(f'a[href$="/u/{b_name}/challenge/"]')
    a.click("text=Дурак")
    a.select_option('select[name="seats"]', "2")
    a.check('input[name="rated"]')
    a.click('form.lobby-form button[type="submit"]')
    a.wait_for_url("**/challenges/*/")
    assert "на рейтинг" in a.inner_text("main")
    b.goto(f"{url}/friends/")
    # the game's name stands as a title after "игру", so it is not declined ("в «Дурак»" read as bad Russian)
    assert "вызывает вас на игру «Дурак»" in b.inner_text("li.challenge-in")
    answer = b.locator("li.challenge-in a.button")
    assert answer.inner_text() == "Ответить"
    answer.click()
    b.wait_for_url("**/challenges/*/")
    assert "на игру «Дурак»" in b.inner_text("main")
    b.screenshot(path=str(artifacts_dir() / "challenge-ru.png"), full_page=True)
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems
