"""Celery tasks: thin wrappers over ``fairplay.services``, imported inside each body (no import cycle)."""

from datetime import datetime

from celery import shared_task


@shared_task(ignore_result=True)
def scan_pairs(requested_at: str | None = None) -> int:
    """Store a fresh scan of every pair (the beat's every ``FAIRPLAY_SCAN_SECONDS``, or a moderator's "Scan now"
    at ``requested_at``); delivered twice, or while another runs, it scans once."""
    from fairplay.services import pair_scan_store

    scan = pair_scan_store(datetime.fromisoformat(requested_at) if requested_at else None)
    return scan.pk if scan is not None else 0


@shared_task(ignore_result=True)
def grade_pair(a: int, b: int) -> int:
    """Grade one of the pair's games not graded yet and queue the next (fired twice, each game is graded once)."""
    from fairplay.services import pair_grade_step

    return pair_grade_step(a, b)


@shared_task(ignore_result=True)
def grade_flagged_pairs() -> int:
    """Queue the grading of every flagged pair's games not graded yet (each game is graded once), the pairs read
    from the stored scan when it is recent."""
    from fairplay.services import flagged_pairs_queue

    return flagged_pairs_queue()
