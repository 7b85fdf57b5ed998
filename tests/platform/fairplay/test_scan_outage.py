"""Redis gone: "Scan now" is refused with a clear message, never a 500 and never a scan per click (the scan's locks
live in Redis, whose cache otherwise answers as if every lock were free), and works again once Redis is back."""

import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from fairplay import tasks
from fairplay.models import PairScan
from fairplay.services import pair_scan_store
from moderation.services import moderator_add
from tests.platform.fairplay.test_scan import play
from tests.platform.test_redis_outage import own_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

QUEUE = "admin:fairplay_suspectedpair_changelist"


def test_scan_now_while_redis_is_down_is_refused_and_queues_nothing(own_redis, monkeypatch):  # noqa: F811
    people = [User.objects.create(username=n, display_name=n) for n in ("ann", "bob", "cat", "dan", "eve")]
    play(people, games=4)
    scan = pair_scan_store()
    sent: list[str | None] = []
    monkeypatch.setattr(tasks.scan_pairs, "delay", lambda at=None: sent.append(at))
    moderator = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    moderator_add(moderator)
    client = Client()
    client.force_login(moderator)

    own_redis.stop()
    for _ in range(3):
        answer = client.post(reverse("admin:fairplay_scan"), follow=True)
        page = answer.content.decode()
        assert answer.status_code == 200 and "try again shortly" in page and "A scan is queued" not in page
    assert sent == []
    assert client.get(reverse(QUEUE)).status_code == 200
    # a scan task a worker held when Redis went: not made without its lock (the next scheduled one makes it)
    assert pair_scan_store(timezone.now()) is None and PairScan.objects.get().pk == scan.pk

    own_redis.start()
    deadline = time.monotonic() + 10  # the cache asks Redis again a moment after its last failure
    while "A scan is queued" not in (page := client.post(reverse("admin:fairplay_scan"), follow=True).content.decode()):
        assert time.monotonic() < deadline, page
        time.sleep(0.2)
    assert len(sent) == 1
    assert "already queued" in client.post(reverse("admin:fairplay_scan"), follow=True).content.decode()
    assert len(sent) == 1
