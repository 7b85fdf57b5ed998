"""Brute force on /admin/login/ is limited, the limit is keyed on the
login name and the address together, and a forged X-Forwarded-For changes no address."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from accounts.models import User
from config.asgi import application
from core.proxy import client_address
from core.sockets import CLOSE_TOO_MANY
from tests.platform.tables.factories import started_table

WRONG = 6  # one more than AXES_FAILURE_LIMIT


@pytest.fixture
def staff(db):
    return User.objects.create_user("boss", "boss@example.com", "right-pass-2026", is_staff=True, is_superuser=True)


@pytest.fixture
def player(db):
    from allauth.account.models import EmailAddress

    user = User.objects.create_user("victim", "victim@example.com", "right-pass-2026")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_admin_login_is_locked_after_repeated_wrong_passwords(client, staff):
    addr = "198.51.100.3"
    for i in range(WRONG):
        client.post("/admin/login/?next=/admin/", {"username": "boss", "password": f"wrong-{i}"}, REMOTE_ADDR=addr)
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "boss", "password": "right-pass-2026"}, REMOTE_ADDR=addr
    )
    assert response.status_code == 429 and b"Too many failed sign-ins" in response.content
    assert "_auth_user_id" not in client.session


def test_a_stranger_cannot_lock_the_owner_out(client, player):
    for i in range(WRONG):
        client.post(reverse("account_login"), {"login": "victim", "password": f"x-{i}"}, REMOTE_ADDR="203.0.113.66")
    locked = client.post(
        reverse("account_login"), {"login": "victim", "password": "right-pass-2026"}, REMOTE_ADDR="203.0.113.66"
    )
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    # the owner, from his own address, signs in as usual
    owner = client.post(
        reverse("account_login"), {"login": "victim", "password": "right-pass-2026"}, REMOTE_ADDR="192.0.2.10"
    )
    assert owner.status_code == 302 and client.session["_auth_user_id"] == str(player.pk)


def test_forwarded_for_is_believed_only_from_a_trusted_proxy():
    from core.proxy import _networks

    assert client_address("203.0.113.5", "1.2.3.4", _networks([])) == "203.0.113.5"
    assert client_address("203.0.113.5", "1.2.3.4", _networks(["10.0.0.0/8"])) == "203.0.113.5"
    trusted = _networks(["10.0.0.0/8"])
    assert client_address("10.0.0.2", "1.2.3.4", trusted) == "1.2.3.4"
    # the left part is whatever the client wrote; the right-most hop our proxy added is the truth
    assert client_address("10.0.0.2", "6.6.6.6, 1.2.3.4", trusted) == "1.2.3.4"
    assert client_address("10.0.0.2", "garbage", trusted) == "10.0.0.2"


def test_make_run_does_not_trust_proxy_headers(settings):
    from core.launcher import Launcher

    launched = {}
    launcher = Launcher("127.0.0.1", 8999)
    launcher.spawn = lambda name, args: launched.setdefault(name, args)
    settings.REDIS_EMBEDDED = False
    launcher.start()
    assert "--proxy-headers" not in launched["daphne"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_forged_forwarded_for_does_not_escape_the_per_address_socket_cap(settings):
    settings.SOCKETS_PER_USER = 2
    assert settings.TRUSTED_PROXIES == []
    table, _, _ = await sync_to_async(started_table)("durak", 2)
    socks, results = [], []
    for fake in ("1.1.1.1", "2.2.2.2", "3.3.3.3"):
        comm = WebsocketCommunicator(
            application,
            f"/ws/tables/{table.pk}/",
            headers=[(b"origin", b"http://testserver"), (b"x-forwarded-for", fake.encode())],
        )
        comm.scope["client"] = ["198.51.100.77", 40000]
        ok, code = await comm.connect(timeout=10)
        results.append((ok, code))
        if ok:
            socks.append(comm)
    assert [ok for ok, _ in results] == [True, True, False] and results[2][1] == CLOSE_TOO_MANY
    for comm in socks:
        await comm.disconnect()


def test_the_lockout_says_until_when_and_no_try_during_it_extends_it(client, player):
    from datetime import timedelta

    from axes.models import AccessAttempt
    from django.utils import timezone

    addr = "203.0.113.90"
    for i in range(WRONG - 1):
        client.post(reverse("account_login"), {"login": "victim", "password": f"x-{i}"}, REMOTE_ADDR=addr)
    # as if the fifth wrong password had been typed ten minutes ago: five of the fifteen minutes are left
    earlier = timezone.now() - timedelta(minutes=10)
    AccessAttempt.objects.filter(username="victim").update(attempt_time=earlier)
    until = earlier + timedelta(minutes=15)
    for password in ("right-pass-2026", "wrong-again", "right-pass-2026"):
        locked = client.post(reverse("account_login"), {"login": "victim", "password": password}, REMOTE_ADDR=addr)
        html = locked.content.decode()
        assert locked.status_code == 429 and "_auth_user_id" not in client.session
        assert f'at <time datetime="{until.isoformat()}"' in html and until.strftime("%H:%M UTC") in html
        assert "in 5 minutes" in html
    assert AccessAttempt.objects.get(username="victim").attempt_time == earlier
    # once it has passed, the right password signs in
    AccessAttempt.objects.filter(username="victim").update(attempt_time=timezone.now() - timedelta(minutes=16))
    ok = client.post(reverse("account_login"), {"login": "victim", "password": "right-pass-2026"}, REMOTE_ADDR=addr)
    assert ok.status_code == 302 and client.session["_auth_user_id"] == str(player.pk)
