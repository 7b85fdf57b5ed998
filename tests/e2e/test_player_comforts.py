"""What a player notices around the tables: the sign-in form, "your turn" from other tables, the table in
Russian (its tab title, its clock, its bots' names)."""

from __future__ import annotations

import unicodedata
import uuid

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, artifacts_dir, watch_page
from tests.e2e.test_durak_table import PASSWORD, SETUP, TIMEOUT, log_in

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}

#: counts the beeps: every "your turn" sound starts one oscillator
COUNT_BEEPS = """
window.__beeps = 0;
class FakeAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.__beeps += 1;
    return {frequency: {}, connect: x => x, start() {}, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: x => x};
  }
}
window.AudioContext = FakeAudio;
"""


#: the unit of the clock's seconds in Russian and Ukrainian
CYR_S = " \N{CYRILLIC SMALL LETTER ES}"


def cyrillic(word: str) -> bool:
    return bool(word) and all("CYRILLIC" in unicodedata.name(c) for c in word)


def new_player(platform_server, tag: str) -> str:
    name = f"{tag}{uuid.uuid4().hex[:6]}"  # unique: the platform's PostgreSQL database outlives a run
    platform_server.django(SETUP.format(names=[name], password=PASSWORD))
    return name


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_the_sign_in_form_shows_no_template_source_and_remember_me_sits_by_its_label(browser, platform_server, locale):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    problems: list[str] = []
    page = context.new_page()
    watch_page(page, problems)
    try:
        for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
            page.goto(platform_server.url + path)
            text = page.inner_text("main")
            assert "{#" not in text and "#}" not in text and "allauth" not in text, (path, text[:200])
        page.goto(platform_server.url + "/accounts/login/")
        box = page.locator('input[name="remember"]').bounding_box()
        label = page.locator('label[for="id_remember"]').bounding_box()
        page.screenshot(path=str(artifacts_dir() / f"login-{locale}.png"))
        # on one row: the box before its label, their middles level
        assert box["x"] + box["width"] <= label["x"], (box, label)
        assert abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2)) < 6, (box, label)
        assert problems == []
    finally:
        context.close()


def test_turns_at_other_tables_show_one_fading_toast_per_table_and_beep_once(browser, platform_server):
    name = new_player(platform_server, "turns")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(COUNT_BEEPS)
    problems: list[str] = []
    page = log_in(context, platform_server.url, name)
    watch_page(page, problems)
    try:
        page.goto(platform_server.url + "/play/")
        page.wait_for_selector("body.presence-open", timeout=TIMEOUT)
        page.mouse.click(5, 400)  # browsers play sound only after the person has touched the page

        def turns(*tables: int) -> None:
            platform_server.django(
                "import json\nfrom accounts.models import User\nfrom social.services import turn_notify\n"
                f"uid = User.objects.get(username={name!r}).pk\n"
                f"for t in {list(tables)!r}:\n    turn_notify(uid, t, 'Durak')\n"
                "print(json.dumps({}))"
            )

        # five turns at one table, then two at another: the second table's toast comes after all the first's
        turns(901, 901, 901, 901, 901, 902, 902)
        page.wait_for_selector('.toast.turn:has-text("#902")', timeout=TIMEOUT)
        toasts = page.locator(".toast.turn")
        assert toasts.count() == 2, page.inner_text("#toasts")
        assert "#901" in toasts.nth(0).inner_text() and "#902" in toasts.nth(1).inner_text()
        assert page.evaluate("window.__beeps") == 1
        page.screenshot(path=str(artifacts_dir() / "turn-toasts.png"))
        # they fade away on their own
        page.wait_for_function("!document.querySelector('.toast.turn')", timeout=TIMEOUT)
        # a later turn, with nothing on screen, is told again with a sound
        turns(903)
        page.wait_for_selector('.toast.turn:has-text("#903")', timeout=TIMEOUT)
        assert page.evaluate("window.__beeps") == 2
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "your_turn", "seconds"), [("ru-RU", "Ваш ход", CYR_S), ("uk-UA", "Ваш хід", CYR_S)])
def test_a_table_in_russian_or_ukrainian_has_no_english_title_clock_or_bot_name(
    browser, platform_server, locale, your_turn, seconds
):
    name = new_player(platform_server, "slav")
    made = platform_server.django(
        "import json\nfrom accounts.models import User\nfrom lobbies.services import table_against_bots\n"
        f"t = table_against_bots(user=User.objects.get(username={name!r}), game='durak', seats=4)\n"
        "print(json.dumps({'table': t.pk}))"
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    problems: list[str] = []
    page = log_in(context, platform_server.url, name)
    watch_page(page, problems)
    try:
        page.goto(f"{platform_server.url}/tables/{made['table']}/")
        page.wait_for_selector('#table-play[data-my-turn="1"]', timeout=TIMEOUT * 4)
        page.wait_for_function("t => document.title.startsWith('● ' + t + ' · ')", arg=your_turn, timeout=TIMEOUT)
        page.wait_for_function(
            "s => /^\\d+/.test(document.querySelector('.clock').textContent) && "
            "document.querySelector('.clock').textContent.endsWith(s)",
            arg=seconds,
            timeout=TIMEOUT,
        )
        bots = page.locator("#table-seats .seat-name").all_inner_texts()[1:]
        assert len(bots) == 3 and all(cyrillic(b.strip()) for b in bots), bots
        page.screenshot(path=str(artifacts_dir() / f"table-{locale}.png"))
        assert problems == []
    finally:
        context.close()


STARTED_TABLE = """
import json
from accounts.models import User
from tables.models import Seat, Table
from tables.services import match_start
players = [User.objects.get(username=n) for n in {names!r}]
table = Table.objects.create(game="durak", options={{}}, seats_count=2, created_by=players[0], turn_seconds=15)
for i, user in enumerate(players):
    Seat.objects.create(table=table, index=i, user=user)
match_start(table)
print(json.dumps({{"table": table.pk}}))
"""


def test_the_opening_turn_clock_waits_for_the_player_still_loading_the_table(browser, platform_server):
    names = [new_player(platform_server, "early"), new_player(platform_server, "late")]
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in names]
    problems: list[str] = []
    pages = [log_in(ctx, platform_server.url, name) for ctx, name in zip(contexts, names, strict=True)]
    for page in pages:
        watch_page(page, problems)
    try:
        made = platform_server.django(STARTED_TABLE.format(names=names))
        url = f"{platform_server.url}/tables/{made['table']}/"
        early, late = pages
        early.goto(url)
        early.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
        early.wait_for_selector(".clock.waiting", state="attached", timeout=TIMEOUT)
        early.screenshot(path=str(artifacts_dir() / "opening-clock-waiting.png"))
        # the other player arrives late (a slow phone, a long redirect): 6 s of a 15 s turn pass meanwhile
        early.wait_for_timeout(6000)
        assert early.locator(".clock.waiting").count() == 1, early.inner_text("#table-status")
        late.goto(url)
        late.wait_for_selector(".live-table.ws-open", timeout=TIMEOUT)
        for page in pages:
            # the clock started as the late page opened: all of the turn is left, on both pages
            page.wait_for_function(
                "() => { const c = document.querySelector('.clock');"
                " return c && !c.classList.contains('waiting') && parseInt(c.textContent, 10) >= 12; }",
                timeout=TIMEOUT,
            )
        late.screenshot(path=str(artifacts_dir() / "opening-clock.png"))
        assert problems == []
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_site_installs_as_an_app_with_an_offline_page(browser, platform_server, tmp_path):
    # a browser profile of its own: Chromium installs nothing from an incognito window (a plain context)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
        locale="uk-UA",
    )
    problems: list[str] = []
    page = context.new_page()
    watch_page(page, problems)
    try:
        page.goto(platform_server.url + "/")
        # the service worker is installed and controls the page (it kept the offline page while installing)
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == platform_server.url + "/"
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == [], manifest
        # Chromium's own check, the one behind "Install app" and "Add to home screen"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        data = page.request.get(platform_server.url + "/manifest.webmanifest", headers={"accept-language": "uk"}).json()
        assert data["short_name"] == "Карти" and data["display"] == "standalone" and data["theme_color"]
        for icon in data["icons"]:
            got = page.request.get(platform_server.url + icon["src"])
            assert got.status == 200 and got.body()[:8] == b"\x89PNG\r\n\x1a\n", icon
        # without a network, a page opens on the offline page, in the reader's language
        context.set_offline(True)
        page.goto(platform_server.url + "/play/")
        assert "Немає з'єднання" in page.inner_text("h1")
        page.screenshot(path=str(artifacts_dir() / "offline.png"))
        context.set_offline(False)
        assert [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p] == []
    finally:
        context.close()
