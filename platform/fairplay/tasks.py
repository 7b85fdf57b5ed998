"""Celery tasks: thin wrappers over ``fairplay.services``, imported inside each body (no import cycle)."""

from celery import shared_task


@shared_task(ignore_result=True)
def grade_pair(a: int, b: int) -> int:
    """Grade one of the pair's games not graded yet and queue the next (fired twice, each game is graded once)."""
    from fairplay.services import pair_grade_step

    return pair_grade_step(a, b)


@shared_task(ignore_result=True)
def grade_flagged_pairs() -> int:
    """Queue the grading of every flagged pair's games not graded yet (each game is graded once)."""
    from fairplay.services import flagged_pairs_queue

    return flagged_pairs_queue()
