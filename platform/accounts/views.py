from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.selectors import profile_user


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = profile_user(username)
    return render(request, "accounts/profile.html", {"player": player, "is_me": request.user == player})
