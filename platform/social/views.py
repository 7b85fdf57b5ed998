"""Social pages: thin views over ``social.selectors`` (reads) and ``social.services`` (writes)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from accounts.models import User
from core.panels import panels_render
from games import GAMES, get_game
from leaderboards.selectors import player_ratings
from lobbies.forms import TableForm
from notifications.selectors import notifications_of
from notifications.services import notification_mark_read
from reliability import selectors as reliability
from social import games as game_reads
from social import panels, selectors, services
from social.forms import ProfileForm
from tables.models import game_choices

FRIENDS_POLL_SECONDS = 10


def _player(username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True, is_bot=False)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect(fallback)


def _act(request: HttpRequest, action: Callable[[], object], success: str) -> bool:
    try:
        action()
    except services.SocialRefused as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, success)
    return True


# -- friends ---------------------------------------------------------------------------


@login_required
def friends(request: AuthenticatedRequest) -> HttpResponse:
    context = {
        "friends": selectors.friends_of(request.user),
        "incoming": selectors.friend_requests_to(request.user),
        "outgoing": selectors.friend_requests_from(request.user),
        "blocked": selectors.blocked_by(request.user),
        "challenges": selectors.challenges_for(request.user),
        "poll_seconds": FRIENDS_POLL_SECONDS,
    }
    return render(request, "social/friends.html", context)


@login_required
def friends_list(request: AuthenticatedRequest) -> HttpResponse:
    """The htmx-polled list of friends with who is online where."""
    return render(request, "social/_friends.html", {"friends": selectors.friends_of(request.user)})


@login_required
@require_POST
def friend(request: AuthenticatedRequest, username: str) -> HttpResponse:
    other = _player(username)
    action = request.POST.get("action")
    me = request.user
    done = {
        "add": (lambda: services.friend_request_send(me, other), _("Friend request sent to %(name)s.")),
        "accept": (lambda: services.friend_request_accept(me, other), _("You and %(name)s are friends now.")),
        "decline": (lambda: services.friend_request_decline(me, other), _("Friend request declined.")),
        "remove": (lambda: services.friend_remove(me, other), _("%(name)s is no longer in your friends.")),
        "block": (lambda: services.block_add(me, other), _("%(name)s is blocked.")),
        "unblock": (lambda: services.block_remove(me, other), _("%(name)s is no longer blocked.")),
    }.get(action or "")
    if done is None:
        messages.error(request, _("Unknown action."))
    else:
        _act(request, done[0], done[1] % {"name": other.name})
    return _back(request, other.get_absolute_url())


# -- challenges ------------------------------------------------------------------------


@login_required
def challenge_new(request: AuthenticatedRequest, username: str) -> HttpResponse:
    other = _player(username)
    game = request.GET.get("game") or request.POST.get("game")
    if game not in GAMES:
        return render(request, "social/challenge_new.html", {"other": other, "games": game_choices()})
    engine = get_game(game)
    form = TableForm(engine, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        table_settings = {
            key: data[key]
            for key in (
                "options",
                "seats",
                "turn_seconds",
                "time_bank_seconds",
                "rated",
                "private",
                "match_length",
                "match_options",
            )
        }
        try:
            challenge = services.challenge_send(request.user, other, game, table_settings)
        except services.SocialRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Challenge sent to %(name)s.") % {"name": other.name})
            return redirect("challenge", challenge.pk)
    return render(request, "social/challenge_new.html", {"other": other, "engine": engine, "form": form})


@login_required
def challenge(request: AuthenticatedRequest, challenge_id: int) -> HttpResponse:
    found = selectors.challenge_for(request.user, challenge_id)
    if found is None:
        raise Http404
    context = {"challenge": found, "incoming": found.to_user_id == request.user.pk}
    return render(request, "social/challenge.html", context)


@login_required
@require_POST
def challenge_answer(request: AuthenticatedRequest, challenge_id: int, answer: str) -> HttpResponse:
    me = request.user
    try:
        if answer == "accept":
            table = services.challenge_accept(me, challenge_id)
            if table.status == table.Status.OPEN:
                return redirect("lobby_table", table.pk)
            return redirect("table", table.pk)
        if answer == "decline":
            services.challenge_decline(me, challenge_id)
            messages.success(request, _("Challenge declined."))
        else:
            services.challenge_cancel(me, challenge_id)
            messages.success(request, _("Challenge cancelled."))
    except services.SocialRefused as exc:
        messages.error(request, str(exc))
    return redirect("friends")


# -- notifications ---------------------------------------------------------------------


@login_required
def notifications(request: AuthenticatedRequest) -> HttpResponse:
    notes = notifications_of(request.user)
    response = render(request, "social/notifications.html", {"notifications": notes})
    notification_mark_read(request.user, [n.pk for n in notes if n.read_at is None])
    return response


@login_required
@require_POST
def notifications_read(request: AuthenticatedRequest) -> HttpResponse:
    notification_mark_read(request.user)
    return _back(request, "notifications")


# -- profile ---------------------------------------------------------------------------


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.profile_user(username)
    rated = player_ratings(player)
    page = {
        "player": player,
        "is_me": request.user == player,
        "ratings": rated["ratings"],
        "rating_chart": rated["chart"],
        "games_played": selectors.profile_games_played(player),
        "bot_levels": selectors.bot_levels(player),
        "head_to_head": selectors.profile_head_to_head(request.user, player),
        # how reliably he finishes his games (none for a bot)
        "reliability": None if player.is_bot else reliability.reliability_of(player.pk),
        "reliability_counts": reliability.COUNTS,
    }
    # the report form: moderation adds it (``social.panels.profile_side``)
    page["profile_panels"] = panels_render(panels.profile_side, request, page)
    return render(request, "social/profile.html", page)


def profile_games(request: HttpRequest, username: str) -> HttpResponse:
    """The paged game history of a profile, filtered by game (htmx swaps it in place)."""
    player = get_object_or_404(User, username=username, is_active=True)
    game = request.GET.get("game") or None
    game = game if game in GAMES else None
    page = game_reads.history_page(game_reads.visible_history(player, request.user, game), request.GET.get("page"))
    context = {
        "player": player,
        "game": game,
        "games": game_choices(),
        "page": page,
        "rows": game_reads.history_rows(player, page.items),
    }
    return render(request, "social/_history.html", context)


@login_required
def profile_edit(request: AuthenticatedRequest) -> HttpResponse:
    user = request.user
    profile = selectors.profile_of(user)
    initial = {
        "display_name": user.display_name,
        "bio": profile.bio,
        "avatar": profile.avatar,
        "country": profile.country,
    }
    form = ProfileForm(request.POST or None, initial=initial, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            services.profile_update(user, **form.cleaned_data)
        except services.SocialRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Profile saved."))
            return redirect("profile", user.username)
    return render(request, "social/profile_edit.html", {"form": form})
