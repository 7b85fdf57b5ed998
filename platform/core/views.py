from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from core.selectors import health
from games import GAMES, get_game


def home(request: HttpRequest) -> HttpResponse:
    games = [get_game(name) for name in GAMES]
    return render(request, "core/home.html", {"games": games})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    ok, report = health()
    return JsonResponse(report, status=200 if ok else 503)
