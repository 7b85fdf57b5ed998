from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.selectors import profile_games_played, profile_recent_games, profile_user
from leaderboards.selectors import player_ratings


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = profile_user(username)
    rated = player_ratings(player)
    recent = [(game, rated["deltas"].get(game.pk)) for game in profile_recent_games(player)]
    context = {
        "player": player,
        "is_me": request.user == player,
        "ratings": rated["ratings"],
        "games_played": profile_games_played(player),
        "recent": recent,
    }
    return render(request, "accounts/profile.html", context)
