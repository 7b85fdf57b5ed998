"""The fair-play queue: a moderator finds no scan made yet, asks for one with "Scan now" and sees the pair a player
reported come up, follows it to a replay at a bot-graded move and annuls a game.

The pair's games are real finished Durak games (played by bots in the seed, one of the pair taking attacks
he could beat) graded by the strong bot through the same service the Celery task runs; the moderator works in
English on a phone, and a colleague reads the same queue in Russian.
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir
from tests.e2e.test_durak_table import PASSWORD, TIMEOUT
from tests.e2e.test_moderation import admin_log_in

pytestmark = pytest.mark.slow

SEED = """
import json, random
from django.utils import timezone
from accounts.models import User
from fairplay.models import GameGrade
from fairplay.services import pair_grade
from games import get_game
from games.bots import get_bot
from moderation.services import moderator_add, report_create
from tables.models import Game, Match, Move, Seat, Table

names = {names!r}
users = [User.objects.create_user(n, n + "@example.com", {password!r}) for n in names]
mod = User.objects.create_user({moderator!r}, {moderator!r} + "@example.com", {password!r})
moderator_add(mod)
engine, bot = get_game("durak"), get_bot("heuristic")
games = []
for seed in range(1, 4):
    state = engine.new(seats=3, seed=seed)
    setup = dict(options=state.options, dealer=state.dealer, deck=list(state.deck))
    rng, moves, took = random.Random(seed), [], 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = bot.choose("durak", state.view(seat), legal, [], rng)
        if seat == 0 and took < 3 and any(a["type"] == "cover" for a in legal):
            action, took = {{"type": "take"}}, took + 1  # soft: he takes what he could beat
        state.apply(seat, action)
        moves.append((seat, dict(action), engine.public_record(action, state.view(None))))
    now = timezone.now()
    table = Table.objects.create(game="durak", seats_count=3, created_by=users[0], status=Table.Status.FINISHED,
                                 finished_at=now)
    for i, u in enumerate(users):
        Seat.objects.create(table=table, index=i, user=u)
    match = Match.objects.create(table=table, finished=True)
    game = Game.objects.create(match=match, table=table, number=1, salt="s", commitment="c", state=state.to_json(),
                               status=Game.Status.FINISHED, finished_at=now, result=state.result(), **setup)
    Move.objects.bulk_create(Move(game=game, number=n, seat=s, action=a, public=p, text="", by="player")
                             for n, (s, a, p) in enumerate(moves, 1))
    games.append(game.pk)
pair_grade(users[0].pk, users[1].pk, budget=3.0)
decisive = sum(len(g.decisive) for g in GameGrade.objects.all())
print(json.dumps({{"games": games, "decisive": decisive, "table": table.pk}}))
"""

REPORT = """
import json
from accounts.models import User
from moderation.services import report_create
users = [User.objects.get(username=n) for n in {names!r}]
report_create(reporter=users[2], reported=users[0], reason="cheating", table_id={table}, text="they spare each other")
print(json.dumps({{}}))
"""
#: ms: a scan queued from the page runs in the platform's Celery worker, which may be busy with other tasks
SCAN_TIMEOUT = 60_000
#: the beat's own scans an hour apart: during the test a scan is only ever the moderator's
PLATFORM_ENV = {"FAIRPLAY_SCAN_SECONDS": "3600"}


def test_a_moderator_follows_a_pair_to_a_graded_move_and_annuls_a_game(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"ann{tag}", f"bob{tag}", f"cat{tag}"]
    moderator = f"mod{tag}"
    seeded = platform_server.django(SEED.format(names=names, moderator=moderator, password=PASSWORD))
    assert seeded["decisive"] > 0, "the bots found no move worth showing in three soft games"

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    mod = admin_log_in(context, url, moderator)

    # the admin's home lists the queue; no scan has been made yet: the page says so and offers "Scan now", and
    # looking at it queues nothing (a second look a moment later finds it as it was)
    mod.click("text=Fair-play queue")
    mod.wait_for_selector("#fairplay-queue")
    assert "No scan has been made yet." in mod.inner_text("#fairplay-scan")
    assert mod.locator("#fairplay-scan button").inner_text() == "Scan now"
    mod.screenshot(path=str(artifacts_dir() / "fairplay-no-scan.png"), full_page=True)
    mod.wait_for_timeout(3000)
    mod.reload()
    assert "No scan has been made yet." in mod.inner_text("#fairplay-scan")
    assert mod.locator("#scan-pending").count() == 0

    # a player reports one of them: "Scan now", and the pair comes up once the worker has scanned
    platform_server.django(REPORT.format(names=names, table=seeded["table"]))
    mod.click("#fairplay-scan button")
    assert "A scan is queued" in mod.inner_text(".messagelist")  # (the worker may be done before the page is back)
    mod.screenshot(path=str(artifacts_dir() / "fairplay-scan-queued.png"), full_page=True)
    row = mod.locator(".fairplay-pair", has_text=names[0]).filter(has_text=names[1])
    row.wait_for(timeout=SCAN_TIMEOUT)
    scanned = mod.inner_text("#scan-time")
    assert "Scanned at" in scanned and "(just now)" in scanned and "0 minutes" not in scanned
    assert mod.locator("#fairplay-scan button").inner_text() == "Scan now"  # done: another may be asked for
    mod.screenshot(path=str(artifacts_dir() / "fairplay-queue.png"), full_page=True)
    assert "games graded" in row.inner_text()  # the bots' grading is there
    assert "1" in row.locator("td").nth(4).inner_text()  # the report

    # a colleague reads the same queue in Russian
    colleague = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    colleague.set_default_timeout(TIMEOUT)
    ru = admin_log_in(colleague, url, moderator)
    ru.click("text=Очередь честной игры")
    scanned = ru.inner_text("#scan-time")
    assert "Проверено в" in scanned and "(только что)" in scanned and "минут" not in scanned
    assert ru.locator(".fairplay-pair", has_text=names[0]).filter(has_text=names[1]).count() == 1
    ru.screenshot(path=str(artifacts_dir() / "fairplay-queue-ru.png"), full_page=True)
    colleague.close()

    row.locator(".pair-link").click()
    mod.wait_for_selector("#fairplay-pair")
    assert mod.locator(".pair-game").count() == 3
    assert mod.locator("#pair-actions a").count() == 4  # warn, ban, playban, reverse ratings for both

    # a graded move opens the replay at that move
    move = mod.locator(".graded-move").first
    number = int(re.search(r"step=(\d+)", move.get_attribute("href")).group(1))
    move.click()
    mod.wait_for_url(re.compile(rf"/games/\d+/replay\?step={number}$"))
    assert f"Move {number} of" in mod.inner_text("main")
    mod.screenshot(path=str(artifacts_dir() / "fairplay-replay.png"), full_page=True)
    mod.go_back()
    mod.wait_for_selector("#fairplay-pair")

    # annul the first game, with a reason; moderation's service recomputes ratings and writes the audit log
    first = mod.locator(".pair-game").first
    game_id = first.get_attribute("id").removeprefix("game-")
    first.locator('input[name="reason"]').fill("colluding against the third player")
    first.locator(".annul-form button").click()
    mod.wait_for_selector(f"#game-{game_id} .annulled")
    assert mod.locator(f"#game-{game_id} .annul-form").count() == 0
    assert "annulled; ratings recomputed" in mod.inner_text(".messagelist")
    mod.screenshot(path=str(artifacts_dir() / "fairplay-pair.png"), full_page=True)
    mod.goto(f"{url}/admin/moderation/auditentry/?q={names[0]}")
    assert "colluding against the third player" in mod.inner_text("#result_list")
    context.close()
