"""An organizer runs a Biznes cumulative event in Chromium: create, three players register, it starts on
time, the players are taken to their table from any open page, a round is played out, the standings match
the score sheet, half points included."""

from __future__ import annotations

import contextlib
import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import artifacts_dir
from tests.e2e.test_durak_table import PASSWORD, log_in

pytestmark = pytest.mark.slow

# bots play out the round quickly once the players hand their seats to them
PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
TIMEOUT = 20_000
LEAD_SECONDS = 75  # from the form to the start: the organizer and three players need their clicks first

SETUP = """
import json
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from accounts.models import User
names = {names!r}
for name in names:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
User.objects.get(username=names[0]).groups.add(Group.objects.get(name="Organizers"))
print(json.dumps({{"ok": True}}))
"""

ROUND = """
import json
from tournaments.models import Round, Tournament
t = Tournament.objects.get(pk={pk})
r = Round.objects.filter(tournament=t, number=1).first()
print(json.dumps({{"starts_at": t.starts_at.isoformat(), "round": r and r.started_at.isoformat()}}))
"""

# a second, one-deal Biznes event of four fresh players whose choices (tests.platform.tournaments.policy)
# make the policeman score a half point (B8), played through the real move service; the deck is the engine's
HALVES = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tests.platform.tournaments.policy import play_out
from tournaments import services
from tournaments.models import Board
owner = User.objects.get(username={owner!r})
now = timezone.now()
t = services.tournament_create(
    organizer=owner, game="biznes", name="Halves {tag}", table_size=4, format="cumulative", rounds=1,
    games_per_round=1, fill="bots", advance=2, min_players=2, max_players=8, options={{}}, match_options={{}},
    registration_opens=now - timedelta(minutes=5), registration_closes=now + timedelta(hours=1),
    starts_at=now + timedelta(hours=1),
)
for i in range(4):
    user = User.objects.create_user(f"half{tag}{{i}}", None, "x" * 12, display_name=f"Half{tag}{{i}}")
    services.registration_join(tournament_id=t.pk, user=user)
services.tournament_next_round(tournament_id=t.pk, user=owner)
board = Board.objects.get(round__tournament=t)
play_out(board.table_id)
print(json.dumps({{"event": t.pk, "table": board.table_id, "advanced": services.tournament_advance(t.pk)}}))
"""


def leave(page) -> None:
    """Click "Leave" until the page says the seat is away.

    Every bot move re-renders the status bar that holds the button; a click that lands as it is swapped
    is lost (a player would click again). Without this, the seat stays human and its 120 s turn clock
    has to run out twice before a bot takes it: the round then outlasts any wait.
    """
    leave_button = page.locator('button:has-text("Leave (a bot plays on)")')
    for _ in range(10):
        if page.locator(".away-note").is_visible():
            return
        if leave_button.is_visible():
            with contextlib.suppress(PlaywrightError):  # swapped away under the pointer: look again
                leave_button.click(timeout=5_000)
        try:
            page.wait_for_selector(".away-note", timeout=5_000)
            return
        except PlaywrightError:
            continue
    raise AssertionError("the page never said the seat was away")


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S")


def test_an_organizer_runs_a_biznes_cumulative_event(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"olga{tag}", f"ivan{tag}", f"petr{tag}", f"anna{tag}"]
    platform_server.django(SETUP.format(names=names, password=PASSWORD))
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in names]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
    organizer, *players = [log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True)]

    # the organizer creates the event from the form (the engine's own options as the lobby shows them)
    organizer.goto(f"{url}/events/new/")
    organizer.click("a.game[href$='game=biznes']")
    now = datetime.now(UTC)
    starts = now + timedelta(seconds=LEAD_SECONDS)
    organizer.fill('input[name="name"]', f"Biznes night {tag}")
    organizer.select_option('select[name="table_size"]', "4")
    organizer.select_option('select[name="format"]', "cumulative")
    organizer.select_option('select[name="fill"]', "bots")
    organizer.fill('input[name="rounds"]', "1")
    organizer.fill('input[name="games_per_round"]', "1")  # one scored deal: bots play it out quickly under load
    organizer.select_option('select[name="turn_seconds"]', "120")
    organizer.fill('input[name="registration_opens"]', stamp(now - timedelta(minutes=1)))
    organizer.fill('input[name="registration_closes"]', stamp(starts))
    organizer.fill('input[name="starts_at"]', stamp(starts))
    organizer.fill('input[name="min_players"]', "2")
    organizer.click('#event-form button[type="submit"]')
    organizer.wait_for_url(re.compile(r"/events/\d+/$"))
    event_url = organizer.url
    pk = int(re.search(r"/events/(\d+)/$", event_url).group(1))
    assert "Biznes cumulative" in organizer.inner_text("main")

    # three players register on the event page; two wait there, the third on the events list (any open
    # page of his is called to his table: the presence socket's "tournament" notification)
    for page in players:
        page.goto(event_url)
        page.click('button:has-text("Register")')
        page.wait_for_selector("text=You are registered.")
        page.wait_for_function("document.getElementById('event').dataset.connected === '1'")
    players[2].goto(f"{url}/events/")
    players[2].wait_for_selector("body.presence-open")
    organizer.reload()
    for name in names[1:]:
        assert name.title() in organizer.inner_text("#event-live")

    # beat starts the event at its time: every player's open page takes him to his table
    for page in players:
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=(LEAD_SECONDS + 40) * 1000)
    tables = {re.search(r"/tables/(\d+)/$", page.url).group(1) for page in players}
    assert len(tables) == 1, "three players and one bot share the one table"
    timing = platform_server.django(ROUND.format(pk=pk))
    started = datetime.fromisoformat(timing["round"])
    assert (
        datetime.fromisoformat(timing["starts_at"])
        <= started
        # beat ticks every 5 s; on CI's loaded PostgreSQL pass the start was seen 17.5 s late (see the note)
        <= datetime.fromisoformat(timing["starts_at"]) + timedelta(seconds=60)
    ), timing

    # the players hand their seats to bots, who play the round's deal out
    for page in players:
        page.wait_for_selector(".live-table.ws-open")
        leave(page)
    # the organizer's page follows live: the event finishes without a reload
    organizer.wait_for_selector("#event-status:has-text('Finished')", timeout=240_000)

    # the standings show each player's Biznes total exactly as the table's score sheet does
    sheet_page = players[0]
    sheet_page.goto(f"{url}/tables/{tables.pop()}/")
    sheet_page.wait_for_selector(".score-sheet tfoot th")
    heads = sheet_page.locator(".score-sheet thead th").all_inner_texts()[1:]
    totals = sheet_page.locator(".score-sheet tfoot th").all_inner_texts()[1:]
    sheet = dict(zip(heads, totals, strict=True))
    organizer.reload()
    for name in names[1:]:
        row = organizer.locator(f'#standings tr[data-player="{name.title()}"]')
        assert row.locator("td.points").inner_text() == sheet[name.title()], (name, sheet)
    shown = [float(t.replace("½", ".5").replace("\N{MINUS SIGN}", "-") or 0) for t in sheet.values()]
    assert len(shown) == 4  # three players and the bot have totals on the sheet
    csv = organizer.request.get(f"{url}/events/{pk}/results.csv")
    assert csv.ok and csv.text().splitlines()[0].startswith("place,player,points")

    # half points: a match whose sheet is known to hold a half shows on the standings exactly as on the sheet
    halves = platform_server.django(HALVES.format(owner=names[0], tag=tag))
    organizer.goto(f"{url}/tables/{halves['table']}/")
    organizer.wait_for_selector(".score-sheet tfoot th")
    heads = organizer.locator(".score-sheet thead th").all_inner_texts()[1:]
    totals = organizer.locator(".score-sheet tfoot th").all_inner_texts()[1:]
    sheet = dict(zip(heads, totals, strict=True))
    assert any("½" in total for total in totals), sheet
    organizer.goto(f"{url}/events/{halves['event']}/")
    organizer.wait_for_selector("#event-status:has-text('Finished')")
    for name, total in sheet.items():
        assert organizer.locator(f'#standings tr[data-player="{name}"] td.points').inner_text() == total, (name, sheet)

    shot = artifacts_dir() / "tournament-standings.png"
    organizer.screenshot(path=str(shot), full_page=True)
    print(f"standings screenshot: {shot}")
    for ctx in contexts:
        ctx.close()
