"""Suite-wide rule: a test that starts a process or a browser is marked ``slow`` (``make test-fast`` skips it)."""

from __future__ import annotations

import pytest

#: fixtures that start a process (Celery worker, daphne) or a browser
PROCESS_FIXTURES = {"celery_worker_process", "platform_server", "browser"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmarked = [
        item.nodeid
        for item in items
        if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("slow") is None
    ]
    if unmarked:
        raise pytest.UsageError(f"mark these tests @pytest.mark.slow (they start a process): {', '.join(unmarked)}")
