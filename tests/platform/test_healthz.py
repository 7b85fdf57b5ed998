"""/healthz tells an operator (or a load balancer) which part of the platform is down."""

import platform

import pytest
from celery import Celery
from django.conf import settings

from config.env import celery_broker_url
from core.selectors import health

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_all_up_with_a_real_worker(client, celery_worker_process):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == body["redis"] == body["celery"] == "up"
    assert body["workers"] >= 1
    # the worker imported the standard library's platform, not our folder
    assert body["worker_systems"] == [platform.system()]


def test_redis_down_is_503_naming_it(client, settings, tmp_path):
    settings.REDIS_URL = f"unix://{tmp_path}/nothing-listens-here.sock"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["redis"] == "down" and body["database"] == "up"
    assert "redis" in body["down"]


def test_no_worker_means_celery_down():
    # the same real Redis, but a broker database no worker listens on
    url = celery_broker_url(settings.REDIS_URL)
    url = url + "?virtual_host=14" if url.startswith("redis+socket") else url.rsplit("/", 1)[0] + "/14"
    lonely = Celery("lonely", broker=url, set_as_current=False)  # or shared tasks would follow it
    ok, body = health(app=lonely)
    assert not ok
    assert body["celery"] == "down" and body["redis"] == "up" and body["down"] == ["celery"]
