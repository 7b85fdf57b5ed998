from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tables.automation import seat_set_away
from tables.models import Game, Table
from tables.rendering import play_controls
from tables.selectors import replay_step, socket_state, table_visible_to
from tables.services import ActionRefused


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    token = request.GET.get("invite", "")
    if not table_visible_to(table, request.user, token):
        raise Http404("no such table")
    state = socket_state(table.pk, request.user)
    if state.get("game") is not None:
        state["controls"] = play_controls(table.game, state["legal"], state["view"])
    return render(request, "tables/table.html", {**state, "invite": token})


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if game.status != Game.Status.FINISHED:
        messages.info(request, "A replay is available once the game is over.")
        raise Http404("this game is still being played")
    if not table_visible_to(game.table, request.user, request.GET.get("invite", "")):
        raise Http404("no such game")
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    return render(request, "tables/replay.html", replay_step(game, step))


@require_POST
@login_required
def table_away(request: HttpRequest, table_id: int) -> HttpResponse:
    """Leave a running game ("a bot plays for me") or come back ("I'm back")."""
    away = request.POST.get("away") == "1"
    try:
        seat_set_away(table_id, request.user, away=away)
    except ActionRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.info(request, "A bot plays your seat until you come back." if away else "Welcome back!")
    return redirect("table", table_id=table_id)
