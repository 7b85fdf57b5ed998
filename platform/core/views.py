from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control, never_cache

from core.selectors import health
from games import GAMES, get_game


def home(request: HttpRequest) -> HttpResponse:
    games = [get_game(name) for name in GAMES]
    return render(request, "core/home.html", {"games": games})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    ok, report = health()
    return JsonResponse(report, status=200 if ok else 503)


@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    # browsers ask for /favicon.ico whatever the page's <link rel="icon"> says; the file's name is hashed in production
    return redirect(static("img/favicon.svg"))


#: the installed app's colours: the top bar's felt, the page's paper
THEME_COLOUR, BACKGROUND_COLOUR = "#0a3622", "#fbfaf7"


@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone's "Add to home screen" installs (in the reader's language)."""
    icons = [
        {"src": static("img/icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("img/icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": static("img/icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    data = {
        "id": "/",
        "name": f"{gettext('Cards')} · {gettext('Durak, Biznes, Believe It or Not')}",
        "short_name": gettext("Cards"),
        "description": gettext("Slavic card games, live"),
        "lang": get_language(),
        "start_url": "/play/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is every page."""
    response = render(
        request,
        "core/sw.js",
        {"offline_url": reverse("offline"), "cached": [static("css/site.css"), static("img/icons/icon-192.png")]},
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    return response


def offline(request: HttpRequest) -> HttpResponse:
    """What the installed app shows when a page cannot be loaded (kept by the service worker)."""
    return render(request, "core/offline.html")
