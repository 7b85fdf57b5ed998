from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.selectors import bot_levels, profile_games_played, profile_user
from leaderboards.selectors import player_ratings
from moderation.models import Report


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = profile_user(username)
    rated = player_ratings(player)
    context = {
        "player": player,
        "is_me": request.user == player,
        "ratings": rated["ratings"],
        "games_played": profile_games_played(player),
        "bot_levels": bot_levels(player),
        "report_players": [{"username": player.username, "name": player.name, "is_bot": player.is_bot}],
        "report_reasons": Report.Reason.choices,
    }
    return render(request, "accounts/profile.html", context)
