from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from core.panels import panels_render
from tables import parts
from tables.hooks import table_context_html
from tables.models import Game, Table
from tables.rendering import play_controls
from tables.selectors import INVITE_INVALID, invite_token_valid, replay_step, socket_state, table_visible_to
from tables.services import ActionRefused, seat_set_away, table_resign


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    token = request.GET.get("invite", "")
    if not invite_token_valid(token):
        return HttpResponseBadRequest(_(INVITE_INVALID))
    if not table_visible_to(table, request.user, token):
        raise Http404("no such table")
    state = socket_state(table.pk, request.user)
    if state.get("game") is not None:
        state["controls"] = play_controls(table.game, state["legal"], state["view"])
    page = {**state, "table": table, "invite": token}
    # the chat, friend requests and the report form: the apps above tables add them (``tables.parts``)
    page["side_panels"] = panels_render(parts.table_side, request, page)
    page["context_html"] = table_context_html(table.pk, request.user)
    return render(request, "tables/table.html", page)


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    # someone who may not see the table hears the same as for a game that does not exist; staff who may read
    # games (moderators following a report or a fair-play pair) see a private table's replay too
    if game is None or not (
        table_visible_to(game.table, request.user, request.GET.get("invite", ""))
        or (request.user.is_staff and request.user.has_perm("tables.view_game"))
    ):
        raise Http404("no such game")
    if game.status != Game.Status.FINISHED:
        messages.info(request, _("A replay is available once the game is over."))
        raise Http404("this game is still being played")
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = replay_step(game, step)
    seated = request.user.is_authenticated and game.table.seats.filter(user=request.user).exists()
    page = {**context, "game": game, "seated": seated}
    page["side_panels"] = panels_render(parts.replay_side, request, page)
    return render(request, "tables/replay.html", page)


@require_POST
@login_required
def table_away(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """Leave a running game ("a bot plays for me") or come back ("I'm back")."""
    away = request.POST.get("away") == "1"
    try:
        seat_set_away(table_id, request.user, away=away)
    except ActionRefused as refused:
        messages.error(request, str(refused))
    else:
        if Table.objects.filter(pk=table_id, status=Table.Status.ABORTED).exists():
            messages.info(request, _("You left; with no other player at the table, it has ended (unrated)."))
        else:
            messages.info(request, _("A bot plays your seat until you come back.") if away else _("Welcome back!"))
    return redirect("table", table_id=table_id)


@require_POST
@login_required
def table_resign_view(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """Give the game up (the page asked "are you sure?" first)."""
    try:
        table_resign(table_id, request.user)
    except ActionRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.info(request, _("You resigned. A bot plays your seat to the end of the match."))
    return redirect("table", table_id=table_id)
