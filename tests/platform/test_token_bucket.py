"""A socket's own frame budget: a burst, then frames as fast as the budget refills, never more."""

from core import throttle
from core.throttle import TokenBucket


def test_a_burst_then_one_frame_per_refill(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(throttle.time, "monotonic", lambda: now[0])
    bucket = TokenBucket(burst=3, rate=2)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.25  # half a frame's refill
    assert not bucket.take()
    now[0] += 0.25
    assert bucket.take() and not bucket.take()
    now[0] += 60  # a long pause refills to the burst, not beyond
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
