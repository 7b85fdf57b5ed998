from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from leaderboards.seasons import biznes_season
from leaderboards.selectors import PERIODS, game_titles, leaderboard


def leaderboards_home(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", game=next(iter(game_titles())))


def leaderboard_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in game_titles():
        raise Http404("no such game")
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    context = {
        "game": game,
        "game_titles": game_titles(),
        "period": period,
        "periods": {key: label for key, (label, _) in PERIODS.items()},
        **leaderboard(game, period, request.user),
    }
    return render(request, "leaderboards/leaderboard.html", context)


def biznes_season_page(request: HttpRequest) -> HttpResponse:
    context = {"game_titles": game_titles(), **biznes_season(request.GET.get("season"), request.user)}
    return render(request, "leaderboards/biznes_season.html", context)
