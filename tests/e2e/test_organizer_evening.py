"""An organizer's evening in Chromium: an invite-only Swiss Durak event, registration by its link, an early
start, a pause that stops a player's clock and tells him why, the resume, a disqualification confirmed on its
own page (the player told at his table) and undone, the last round ended early, and the podium. Then a club's
series of three Biznes events whose page adds up exactly what the events' own pages show."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import artifacts_dir
from tests.e2e.test_durak_table import PASSWORD, log_in

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}
TIMEOUT = 20_000

SETUP = """
import json
from datetime import timedelta
from allauth.account.models import EmailAddress
from django.utils import timezone
from accounts.models import User
from tournaments import services
names = {names!r}
users = []
for name in names:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    users.append(user)
services.organizer_add(users[0])
now = timezone.now()
t = services.tournament_create(
    organizer=users[0], game="durak", name="Thursday Durak {tag}", table_size=2, format="swiss", rounds=2,
    games_per_round=1, fill="bots", advance=1, min_players=2, max_players=8, options={{}}, match_options={{}},
    turn_seconds=120, private=True, registration_opens=now - timedelta(minutes=5),
    registration_closes=now + timedelta(hours=1), starts_at=now + timedelta(hours=1),
)
print(json.dumps({{"event": t.pk, "token": t.invite_token, "ids": [u.pk for u in users]}}))
"""

#: a change to the event made elsewhere (a co-organizer's tab, say): a player disqualified or reinstated
ORGANIZE = """
from accounts.models import User
from tournaments import services
services.{step}(tournament_id={pk}, user=User.objects.get(pk={org}), player_id={player})
print("{{}}")
"""

PAUSED = """
import json
from tables.models import Game, Table
from tournaments.models import Board
board = Board.objects.filter(round__tournament_id={pk}).order_by("-round__number").first()
table = Table.objects.get(pk=board.table_id)
game = Game.objects.filter(table=table, status="playing").first()
print(json.dumps({{"paused": table.paused_at is not None, "deadline": game and game.deadline.isoformat()}}))
"""

SERIES = """
import json
import time
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from tests.platform.tournaments.factories import play_round_out
from tournaments import services
from tournaments.series import series_create, series_next_event
owner = User.objects.get(username={owner!r})
players = [
    User.objects.create_user(f"club{tag}{{i}}", None, "x" * 12, display_name=f"Club{tag}{{i}}") for i in range(6)
]
series = series_create(organizer=owner, name="Pulka {tag}", game="biznes", weekly=True)
now = timezone.now()
event = services.tournament_create(
    organizer=owner, game="biznes", series=series, name="Pulka {tag} #1", table_size=4, format="cumulative",
    rounds=1, games_per_round=1, fill="bots", advance=2, min_players=2, max_players=8, options={{}},
    match_options={{}}, registration_opens=now - timedelta(minutes=5), registration_closes=now + timedelta(hours=1),
    starts_at=now + timedelta(hours=1),
)
events = []
for number, who in enumerate([players[:4], players[1:5], [players[0], players[2], players[4], players[5]]]):
    if number:
        event = series_next_event(series_id=series.pk, user=owner)
    for user in who:
        services.registration_join(tournament_id=event.pk, user=user)
    services.tournament_next_round(tournament_id=event.pk, user=owner)
    event.refresh_from_db()
    play_round_out(event)
    # the platform's worker may move the event on first: wait for it to be over, whoever finishes it
    for _ in range(600):
        services.tournament_advance(event.pk)
        event.refresh_from_db()
        if event.status == "finished":
            break
        time.sleep(0.1)
    assert event.status == "finished", event.status
    events.append(event.pk)
print(json.dumps({{"series": series.pk, "events": events}}))
"""


def number(text: str) -> float:
    text = text.strip().replace("½", ".5").replace("\N{MINUS SIGN}", "-")
    if text.startswith(".") or text.startswith("-."):
        text = text.replace(".", "0.", 1)
    return float(text or 0)


def shot(page, name: str) -> None:
    path = artifacts_dir() / name
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def confirm(page, details: str, button: str) -> None:
    """Open a confirmation (a <details> whose text says what will happen) and press its "Yes"."""
    page.click(f"{details} > summary")
    page.click(f"{details} button:has-text('{button}')")


def test_an_organizers_evening(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"olga{tag}", f"ivan{tag}", f"petr{tag}"]
    made = platform_server.django(SETUP.format(names=names, password=PASSWORD, tag=tag))
    pk, token, ids = made["event"], made["token"], made["ids"]
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in names]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
    organizer, ivan, petr = [log_in(ctx, url, name) for ctx, name in zip(contexts, names, strict=True)]
    event_url = f"{url}/events/{pk}/"

    # without the link the event does not exist for them; with it they register on its page
    assert ivan.goto(event_url).status == 404
    for page in (ivan, petr):
        page.goto(f"{event_url}?invite={token}")
        page.click('#registration-box button:has-text("Register")')
        page.wait_for_selector("text=You are registered.")
        page.wait_for_function("document.getElementById('event').dataset.connected === '1'")

    # the organizer starts early: the page says what it does first, then both players are called to the table
    organizer.goto(event_url)
    organizer.click("#confirm-start > summary")
    assert "The event starts now, before its scheduled time, with 2 players" in organizer.inner_text("#confirm-start")
    organizer.click("#confirm-start button:has-text('Yes, start the event now')")
    organizer.wait_for_selector("text=The event has started")
    for page in (ivan, petr):
        page.wait_for_url(re.compile(r"/tables/\d+/"), timeout=40_000)
        page.wait_for_selector(".live-table.ws-open")
    assert ivan.url == petr.url
    ivan.wait_for_selector("#table-event a.back")
    assert f"Thursday Durak {tag}" in ivan.inner_text("#table-event") and "round 1" in ivan.inner_text("#table-event")
    ivan.wait_for_selector("#table-status .clock")
    shot(ivan, "evening-table-note.png")

    # pause: every table holds, the clock goes, and the player reads why
    organizer.click('button:has-text("Pause")')
    organizer.wait_for_selector("text=Paused: every table waits")
    ivan.wait_for_selector("#table-paused")
    ivan.wait_for_selector("#table-event .event-paused")
    assert ivan.locator("#table-status .clock").count() == 0
    held = platform_server.django(PAUSED.format(pk=pk))
    assert held["paused"]
    shot(ivan, "evening-paused-table.png")

    # resume: the clock is back, with the turn's time moved on by the pause
    organizer.click('button:has-text("Resume")')
    organizer.wait_for_selector("text=Resumed")
    ivan.wait_for_selector("#table-paused", state="detached")
    ivan.wait_for_selector("#table-status .clock")
    resumed = platform_server.django(PAUSED.format(pk=pk))
    assert not resumed["paused"] and resumed["deadline"] > held["deadline"]

    # disqualify: nobody is preselected; the confirmation names him and says what happens; he is told at his table
    organizer.goto(event_url)
    assert organizer.locator("#dq-player").input_value() == ""
    organizer.select_option("#dq-player", str(ids[2]))
    organizer.click('#disqualify-form button:has-text("Disqualify")')
    organizer.wait_for_selector("#confirm")
    assert names[2].title() in organizer.inner_text("#confirm h2")
    shot(organizer, "evening-disqualify-confirm.png")
    organizer.click('#confirm button:has-text("Yes")')
    organizer.wait_for_selector("text=The player is disqualified and told")
    petr.wait_for_selector("text=The organizer disqualified you")
    assert petr.locator('button:has-text("I\'m back")').count() == 0
    shot(petr, "evening-disqualified-player.png")

    # and reinstated
    organizer.select_option("#reinstate-player", str(ids[2]))
    organizer.click('#reinstate-form button:has-text("Reinstate")')
    organizer.wait_for_selector("text=The player is reinstated and told")

    # what he is typing in the panel stays while the event changes under it, and the panel follows the change
    organizer.fill("#announce-text", "Round two starts at nine")
    for step in ("player_disqualify", "player_reinstate"):
        key = organizer.get_attribute("#organizer-panel", "data-key")
        platform_server.django(ORGANIZE.format(step=step, pk=pk, org=ids[0], player=ids[2]))
        organizer.wait_for_function(f"document.getElementById('organizer-panel').dataset.key !== {key!r}")
        assert organizer.input_value("#announce-text") == "Round two starts at nine"

    # the first round ended early: bots play it out and the second (last) round seats both players again
    first_table = ivan.url
    confirm(organizer, "#confirm-next", "Yes, end this round now")
    organizer.wait_for_selector("text=The round was ended early")
    ivan.wait_for_url(lambda u: u != first_table and "/tables/" in u, timeout=120_000)
    organizer.goto(event_url)
    organizer.wait_for_selector("#event-status:has-text('round 2')")
    organizer.click("#confirm-next > summary")
    assert "This is the last round: ending it now finishes the event." in organizer.inner_text("#confirm-next")
    organizer.click("#confirm-next button:has-text('Yes, end the round and finish the event')")
    organizer.wait_for_selector("#event-status:has-text('Finished')", timeout=120_000)
    organizer.wait_for_selector("#podium")
    podium = organizer.inner_text("#podium")
    assert names[1].title() in podium and names[2].title() in podium
    shot(organizer, "evening-podium.png")
    for ctx in contexts:
        ctx.close()


def test_a_series_page_adds_up_its_events_exactly(browser, platform_server):
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    owner = f"club{tag}"
    platform_server.django(SETUP.format(names=[owner], password=PASSWORD, tag=tag))
    made = platform_server.django(SERIES.format(owner=owner, tag=tag))
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(TIMEOUT)
    page = log_in(ctx, url, owner)

    # each event's own standings page, as a player reads it
    expected: dict[str, float] = {}
    for event in made["events"]:
        page.goto(f"{url}/events/{event}/")
        page.wait_for_selector("#event-status:has-text('Finished')")
        for row in page.locator("#standings tbody tr").all():
            name = row.get_attribute("data-player")
            expected[name] = expected.get(name, 0) + number(row.locator("td.points").inner_text())

    page.goto(f"{url}/series/{made['series']}/")
    page.wait_for_selector("#series-standings")
    shown = {
        row.get_attribute("data-player"): number(row.locator("td.points").inner_text())
        for row in page.locator("#series-standings tbody tr").all()
    }
    assert shown == expected
    assert page.locator("#series-standings thead th").count() == 4 + 3
    shot(page, "series-standings.png")
    csv = page.request.get(f"{url}/series/{made['series']}/standings.csv")
    assert csv.ok and csv.text().splitlines()[0].startswith("place,player,total,events")
    ctx.close()

    # on a phone the standings read as a ruled table with the points lined up on the right, and a wide one
    # scrolls in its own box rather than pushing the page sideways
    phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone_ctx.set_default_timeout(TIMEOUT)
    phone = log_in(phone_ctx, url, owner)
    pages = ((f"/series/{made['series']}/", "#series-standings"), (f"/events/{made['events'][0]}/", "#standings"))
    for path, table in pages:
        phone.goto(url + path)
        cell = phone.locator(f"{table} tbody tr").first.locator("td.points")
        # (the event's live part may be read again meanwhile: these wait for the cell in place)
        expect(cell).to_have_css("text-align", "right")
        expect(cell).to_have_css("border-bottom-style", "solid")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
    shot(phone, "series-standings-phone.png")
    phone_ctx.close()
