"""The site installs as an app: a manifest with its icons and colours, a service worker over the whole site
that keeps an offline page, and every page pointing at them."""

import json
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_in_the_readers_language_with_its_icons(client):
    response = client.get("/manifest.webmanifest", headers={"accept-language": "ru"})
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["short_name"] == "Карты" and data["lang"] == "ru"
    assert data["display"] == "standalone" and data["start_url"] == "/play/" and data["theme_color"] == "#0a3622"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        png = Path(settings.BASE_DIR) / "static" / icon["src"].removeprefix(settings.STATIC_URL)
        head = png.read_bytes()[:24]
        width = int.from_bytes(head[16:20], "big")
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{width}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_and_keeps_the_offline_page(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert '"/offline/"' in response.content.decode()
    offline = client.get("/offline/", headers={"accept-language": "uk"}).content.decode()
    assert "Немає з&#x27;єднання" in offline or "Немає з'єднання" in offline


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#0a3622">' in page and "js/install.js" in page
