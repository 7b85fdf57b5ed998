"""A user's frame budget across all his sockets and web processes: each process counts his frames itself and tells
Redis of them in batches, so the budget holds per user with one round trip per batch, not per frame."""

from __future__ import annotations

import pytest
from django.conf import settings
from redis import asyncio as aioredis

from core import throttle
from core.throttle import FrameBudget, frame_windows

pytestmark = pytest.mark.asyncio


class Process:
    """One web process's budget, counting the round trips it makes to Redis."""

    def __init__(self) -> None:
        self.budget = FrameBudget(aioredis.Redis.from_url(settings.REDIS_URL))
        self.trips = 0
        report = self.budget.report

        async def counted(**kwargs):
            self.trips += 1
            return await report(**kwargs)

        self.budget.report = counted

    async def frames(self, key: str, count: int) -> list[bool]:
        return [await self.budget.allow(key) for _ in range(count)]

    async def close(self) -> None:
        await self.budget.client.aclose()


async def test_one_process_holds_the_budget_exactly_and_asks_redis_once_a_batch(settings):
    settings.SOCKET_FRAME_LIMITS = "100/minute"
    assert frame_windows("100/minute") == ((100, 60, 5),)
    web = Process()
    allowed = await web.frames("user:batch-one", 103)
    assert allowed == [True] * 100 + [False] * 3
    assert web.trips == 20  # one round trip per 5 frames (the last 3 refused without asking)
    # another user's budget is his own
    assert await web.frames("user:batch-other", 1) == [True]
    await web.close()


async def test_a_frame_a_second_asks_redis_once_a_dozen_frames(settings, monkeypatch):
    settings.SOCKET_FRAME_LIMITS = "10/second;240/minute"
    assert frame_windows(settings.SOCKET_FRAME_LIMITS) == ((10, 1, 2), (240, 60, 12))
    now = [1000.0]
    monkeypatch.setattr(throttle.time, "monotonic", lambda: now[0])
    web = Process()
    for _ in range(24):  # a player's pace: the second's window never holds a batch, the minute's twice
        assert await web.frames("user:batch-pace", 1) == [True]
        now[0] += 1.0
    assert web.trips == 2
    # a burst within one second is held to that second's budget
    assert await web.frames("user:batch-pace", 11) == [True] * 10 + [False]
    await web.close()


async def test_sockets_on_two_processes_share_the_budget_within_a_batch_per_process(settings):
    settings.SOCKET_FRAME_LIMITS = "100/minute"
    first, second = Process(), Process()
    allowed = 0
    for _ in range(80):  # the user's frames alternate between his sockets on the two processes
        allowed += (await first.frames("user:batch-two", 1))[0]
        allowed += (await second.frames("user:batch-two", 1))[0]
    # the budget holds across both, over by at most a batch less one per process (2 x 4)
    assert 100 <= allowed <= 108
    assert await first.frames("user:batch-two", 1) == [False]
    assert await second.frames("user:batch-two", 1) == [False]
    assert first.trips + second.trips <= 40
    await first.close()
    await second.close()
