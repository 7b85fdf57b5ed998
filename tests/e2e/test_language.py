"""A Ukrainian browser gets the table page in Ukrainian; the language switcher turns it Russian, socket included."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, TIMEOUT, log_in

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

    # what the socket renders comes in Russian too: a quick phrase, sent and shown over it
    page.click('#table-chat button[data-phrase="gg"]')
    page.wait_for_selector('#chat-lines-players .chat-line:has-text("Хорошая игра")')
    page.screenshot(path=str(artifacts_dir() / "table-ru.png"), full_page=True)

    # the choice is remembered over the browser's language
    page.goto(f"{url}/")
    assert page.get_attribute("html", "lang") == "ru"
    assert "Славянские карточные игры вживую" in page.inner_text("main")
    assert not problems, problems
    context.close()
