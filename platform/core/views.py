from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
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
