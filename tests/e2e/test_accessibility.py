"""axe-core over the main pages, signed out and in, a player's and a spectator's table, two languages, two sizes.

axe is the locked npm package's own build, read from ``node_modules`` (``npm ci`` puts it there) and
injected into each page after it has drawn; any violation, of any impact, fails with its rule and nodes.
"""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.conftest import artifacts_dir
from tests.e2e.test_durak_table import PASSWORD, TIMEOUT, log_in
from tests.platform.helpers import ROOT

pytestmark = pytest.mark.slow

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

SETUP = """
import json
from allauth.account.models import EmailAddress
from accounts.models import User
from tests.platform.tables.factories import started_table
from django.contrib.auth.models import Group
from tests.platform.tournaments.factories import event
from tournaments.models import ORGANIZERS_GROUP
users = []
for name in {names!r}:
    user = User.objects.create_user(name, name + "@example.com", {password!r}, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    users.append(user)
users[0].groups.add(Group.objects.get_or_create(name=ORGANIZERS_GROUP)[0])
table, _, _ = started_table("durak", 2, players=users[:2])
# a finished rated game for the profile's history and ratings, a friend request for friends and notifications
import random
from social.services import friend_request_send
from tests.platform.tables.factories import play_randomly
play_randomly(started_table("durak", 2, players=[users[0], users[2]])[2], random.Random(7))
friend_request_send(users[2], users[0])
tournament = event(users[0], name="Axe Friday")
print(json.dumps({{"table": table.pk, "event": tournament.pk}}))
"""

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-US", "ru": "ru-RU"}


def axe_violations(page, name: str) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    page.screenshot(path=str(artifacts_dir() / f"axe-{name}.png"), full_page=True)
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{name}: {v['id']} ({v['impact']}) {v['help']}: "
        + json.dumps([node["target"] for node in v["nodes"][:5]])
        + (" " + v["nodes"][0]["failureSummary"].replace("\n", " ") if v["nodes"] else "")
        for v in result
    ]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_main_pages_have_no_axe_violation(browser, platform_server, lang, size):
    assert AXE.exists(), "axe-core is missing: npm ci"
    url = platform_server.url
    tag = uuid.uuid4().hex[:6]
    names = [f"anna{tag}", f"boris{tag}", f"vera{tag}"]
    ids = platform_server.django(SETUP.format(names=names, password=PASSWORD))
    found: list[str] = []

    def context():
        ctx = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
        ctx.set_default_timeout(TIMEOUT)
        return ctx

    def check(page, path: str, name: str, ready: str = "main") -> None:
        page.goto(f"{url}{path}")
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        found.extend(axe_violations(page, f"{name}-{lang}-{size}"))

    outside = context()
    page = outside.new_page()
    for path, name in (("/", "home"), ("/accounts/signup/", "signup"), ("/accounts/login/", "login")):
        check(page, path, name)
    outside.close()

    player = context()
    page = log_in(player, url, names[0])
    check(page, "/", "home-signed-in")
    check(page, "/play/", "play")
    check(page, f"/tables/{ids['table']}/", "table-player", ".live-table.ws-open")
    check(page, f"/u/{names[0]}/", "profile")
    check(page, "/leaderboards/", "leaderboards")
    check(page, "/events/", "events")
    check(page, f"/events/{ids['event']}/", "event")
    check(page, "/friends/", "friends")
    check(page, "/notifications/", "notifications")
    check(page, "/reports/", "reports")
    player.close()

    # the other seat: whoever may not move now sees a dimmed hand, which must stay readable
    other = context()
    page = log_in(other, url, names[1])
    check(page, f"/tables/{ids['table']}/", "table-other-seat", ".live-table.ws-open")
    other.close()

    spectator = context()
    page = log_in(spectator, url, names[2])
    check(page, f"/tables/{ids['table']}/", "table-spectator", ".live-table.ws-open")
    spectator.close()

    assert not found, "\n".join(found)
