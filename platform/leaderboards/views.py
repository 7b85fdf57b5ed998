from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from leaderboards.seasons import biznes_season
from leaderboards.selectors import PERIODS, kinds, leaderboard


def leaderboards_home(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", kind=next(iter(kinds())))


def leaderboard_page(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in kinds():
        raise Http404("no such game")
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    context = {
        "kind": kind,
        "kinds": kinds(),
        "period": period,
        "periods": {key: label for key, (label, _) in PERIODS.items()},
        **leaderboard(kind, period, request.user),
    }
    return render(request, "leaderboards/leaderboard.html", context)


def biznes_season_page(request: HttpRequest) -> HttpResponse:
    context = {"kinds": kinds(), **biznes_season(request.GET.get("season"), request.user)}
    return render(request, "leaderboards/biznes_season.html", context)
