"""Pages load their scripts from the npm-installed htmx 2 build and have an icon."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_pages_load_htmx_2_and_its_maintained_websocket_extension(client):
    html = client.get("/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert [s.rsplit("/", 1)[-1] for s in scripts[:2]] == ["htmx.min.js", "ws.min.js"]
    htmx = finders.find("vendor/htmx/htmx.min.js")
    assert htmx, "make vendor has not installed htmx (npm ci)"
    with open(htmx, encoding="utf-8") as f:
        assert re.search(r'version:"2\.\d+\.\d+"', f.read())


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()
