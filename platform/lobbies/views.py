"""Lobby pages: thin views over ``lobbies.selectors`` (reads) and ``lobbies.services`` (writes)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import standing
from accounts.http import AuthenticatedRequest
from chat.selectors import lobby_chat
from core.panels import panels_render
from games import GAMES, get_game
from lobbies import pairing, parts, selectors, services
from lobbies.forms import OPTION_PREFIX, AgainstBotsForm, SeekForm, TableForm
from tables.models import BOT_LEVELS, Table, game_choices
from tables.selectors import INVITE_INVALID, invite_token_valid, table_visible_to

POLL_SECONDS = 3


def _game_filter(request: HttpRequest) -> str | None:
    game = request.GET.get("game") or None
    return game if game in GAMES else None


def _lobby_context(request: HttpRequest) -> dict:
    game = _game_filter(request)
    return {
        "game": game,
        "games": game_choices(),
        "open_tables": selectors.open_tables(game=game, viewer=request.user),
        "my_tables": selectors.tables_of(request.user),
        "poll_seconds": POLL_SECONDS,
    }


def _quick_seats(game: str | None) -> dict:
    """The seat counts "play against bots" offers for ``game`` (the first game when None)."""
    engine = get_game(game or next(iter(GAMES)))
    return {"quick_game": engine.name, "quick_seats": engine.seat_counts()}


def play(request: HttpRequest) -> HttpResponse:
    context = _lobby_context(request)
    context.update(_quick_seats(context["game"]))
    context["bot_levels"] = BOT_LEVELS
    context["engines"] = [get_game(name) for name in GAMES]
    context["chat"] = lobby_chat(request.user)
    context["play_refusal"] = standing.play_refusal(request.user)
    context.update(_play_now_context(request, context["game"]))
    # the games being played now: social adds them (``lobbies.parts``)
    context["play_panels"] = panels_render(parts.play_page, request, context)
    return render(request, "lobbies/play.html", context)


#: the cookie of a player's last "Play now" settings, signed and naming him: the form starts from them. A cookie,
#: not the session: a first click, or new settings, writes nothing on the server.
LAST_SEEK, LAST_SEEK_SALT, LAST_SEEK_SECONDS = "play_now", "lobbies.play_now", 365 * 24 * 3600


def _last_seek(request: HttpRequest) -> dict:
    """His last settings (another player's, signed in on this browser before him, are not his)."""
    try:
        kept = signing.loads(request.COOKIES.get(LAST_SEEK, ""), salt=LAST_SEEK_SALT)
    except signing.BadSignature:
        return {}
    if not isinstance(kept, dict) or kept.get("user") != request.user.pk:
        return {}
    return kept


def _seek_form(request: HttpRequest, game: str | None) -> SeekForm:
    last = _last_seek(request)
    game = game or (last.get("game") if last.get("game") in GAMES else None) or next(iter(GAMES))
    initial = last.get("data", {}) if last.get("game") == game else {}
    return SeekForm(get_game(game), initial=initial)


def _play_now_context(request: HttpRequest, game: str | None) -> dict:
    return {
        "seek_form": _seek_form(request, game),
        "engines": [get_game(name) for name in GAMES],
        **_queue_context(request),
    }


def _queue_context(request: HttpRequest) -> dict:
    seek = selectors.seek_of(request.user)
    return {
        "seek": seek,
        "seek_wait": selectors.wait_text(seek.created_at) if seek is not None else "",
        "queues": selectors.queues_waiting(),
        "poll_seconds": POLL_SECONDS,
    }


def play_now_form(request: HttpRequest) -> HttpResponse:
    """The "Play now" settings of another game, fetched by htmx when the game is changed."""
    return render(request, "lobbies/_play_now_form.html", {"seek_form": _seek_form(request, _game_filter(request))})


def play_now_queues(request: HttpRequest) -> HttpResponse:
    """The htmx-polled queues: how many wait in each, and the player's own wait."""
    return render(request, "lobbies/_queues.html", _queue_context(request))


def _play_now_answer(request: HttpRequest, game: str, error: str = "") -> HttpResponse:
    """A join's answer while he waits (or was refused): from the page's form (htmx) only its queues part, with the
    refusal; from a plain form the Play page again, the message on it."""
    if request.headers.get("HX-Request"):
        return render(request, "lobbies/_queues.html", {**_queue_context(request), "play_now_error": error})
    if error:
        messages.error(request, error)
    else:
        messages.info(request, _("You are in the queue: your table opens here as soon as it is made."))
    return redirect(f"{reverse('play')}?game={game}")


@require_POST
@login_required
def play_now(request: AuthenticatedRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    if game not in GAMES:
        return _play_now_answer(request, "", _("There is no such game."))
    form = SeekForm(get_game(game), request.POST)
    if not form.is_valid():
        errors = []
        for name, field_errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            errors += [f"{label}: {error}" if label else error for error in map(str, field_errors)]
        return _play_now_answer(request, game, " ".join(errors))
    data = form.cleaned_data
    try:
        table = services.seek_join(
            user=request.user,
            game=game,
            seats=data["seats"],
            options=data["options"],
            match_options=data["match_options"],
            turn_seconds=data["turn_seconds"],
            rated=data["rated"],
            bots_after=data["bots_after"],
            reliable_only=data["reliable_only"],
        )
    except services.LobbyRefused as exc:
        return _play_now_answer(request, game, str(exc))
    kept = {"user": request.user.pk, "game": game}
    kept["data"] = {name: value for name, value in request.POST.items() if name in form.fields}
    if table is None:
        response = _play_now_answer(request, game)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("table", args=[table.pk])
    else:
        response = redirect("table", table.pk)
    if _last_seek(request) != kept:  # the same settings again are not sent again
        value = signing.dumps(kept, salt=LAST_SEEK_SALT, compress=True)
        response.set_cookie(
            LAST_SEEK,
            value,
            max_age=LAST_SEEK_SECONDS,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


@require_POST
@login_required
def play_now_leave(request: AuthenticatedRequest) -> HttpResponse:
    if services.seek_leave(user=request.user):
        messages.success(request, _("You left the queue."))
    else:
        messages.info(request, _("You were not waiting in a queue."))
    return redirect("play")


def play_bot_seats(request: HttpRequest) -> HttpResponse:
    """The quick start's player counts, fetched by htmx when another game is chosen."""
    return render(request, "lobbies/_quick_seats.html", _quick_seats(_game_filter(request)))


def play_tables(request: HttpRequest) -> HttpResponse:
    """The htmx-polled part of the Play page."""
    return render(request, "lobbies/_tables.html", _lobby_context(request))


def rules(request: HttpRequest, game: str | None = None) -> HttpResponse:
    """How to play: every game's page, or the list of games."""
    engines = [get_game(name) for name in GAMES]
    if game is None:
        window = {
            "start": int(pairing.WINDOW_START),
            "step": int(pairing.WINDOW_STEP),
            "every": int(pairing.WINDOW_EVERY),
            "open": int(pairing.WINDOW_OPEN_AFTER),
        }
        return render(request, "lobbies/rules_index.html", {"engines": engines, **window})
    if game not in GAMES:
        raise Http404(_("There is no such game."))
    engine = get_game(game)
    context = {"engine": engine, "engines": engines, "options": selectors.rules_options(engine)}
    return render(request, "lobbies/rules.html", context)


@login_required
def table_new(request: AuthenticatedRequest) -> HttpResponse:
    game = request.GET.get("game") or request.POST.get("game")
    if game not in GAMES:
        return render(request, "lobbies/new.html", {"engines": [get_game(name) for name in GAMES]})
    engine = get_game(game)
    form = TableForm(engine, request.POST or None, initial=_initial_from(request, game))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = services.table_create(
                user=request.user,
                game=game,
                options=data["options"],
                seats=data["seats"],
                turn_seconds=data["turn_seconds"],
                time_bank_seconds=data["time_bank_seconds"],
                rated=data["rated"],
                private=data["private"],
                match_length=data["match_length"],
                match_options=data["match_options"],
                min_reliability=data["min_reliability"],
            )
        except services.LobbyRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Table created: you sit in seat 1. It starts when every seat is filled."))
            return redirect("lobby_table", table.pk)
    return render(request, "lobbies/new.html", {"engine": engine, "form": form})


def _initial_from(request: HttpRequest, game: str) -> dict:
    """ "New table" at the end of a match: the form starts from that table's game, options and settings."""
    raw = request.GET.get("from", "")
    table = Table.objects.filter(pk=int(raw), game=game).first() if raw.isascii() and raw.isdigit() else None
    if table is None or not table_visible_to(table, request.user):
        return {}
    initial = {
        "seats": table.seats_count,
        "turn_seconds": table.turn_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "match_length": table.match_length,
        "rated": table.rated,
        "private": table.private,
        "min_reliability": table.min_reliability,
        **table.match_options,
    }
    initial.update({OPTION_PREFIX + name: value for name, value in table.options.items()})
    return initial


@require_POST
@login_required
def rematch(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """Agree to a rematch; the last one to agree starts it and goes there (the others' pages follow)."""
    try:
        new = services.table_rematch(table_id=table_id, user=request.user)
    except services.LobbyRefused as exc:
        messages.error(request, str(exc))
        return redirect("table", table_id)
    if new is not None:
        return redirect("table", new.pk)
    messages.info(request, _("You asked for a rematch; it starts when every player agrees."))
    return redirect("table", table_id)


def _table_visible(request: HttpRequest, table_id: int, token: str = "") -> Table:
    table = selectors.lobby_table(table_id)
    if table is None or not table_visible_to(table, request.user, token):
        raise Http404(_("There is no such table."))
    return table


def _playing_url(table: Table, token: str = "") -> str:
    url = reverse("table", args=[table.pk])
    return f"{url}?invite={token}" if token else url  # the table page and socket call it "invite"


def _waiting_room(request: HttpRequest, table: Table, token: str = "") -> HttpResponse:
    if table.status != Table.Status.OPEN:
        return redirect(_playing_url(table, token))
    card = selectors.table_card(table, request.user)
    invite = request.build_absolute_uri(reverse("invite", args=[table.invite_token]))
    return render(
        request,
        "lobbies/table.html",
        {
            "card": card,
            "table": table,
            "token": token,
            "bot_levels": BOT_LEVELS,
            "poll_seconds": POLL_SECONDS,
            "is_host": request.user.is_authenticated and table.created_by_id == request.user.pk,
            "invite_url": invite if table.private and card.you_sit else "",
        },
    )


def lobby_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _waiting_room(request, _table_visible(request, table_id))


def invite(request: HttpRequest, token: str) -> HttpResponse:
    table = selectors.table_by_invite(token)
    if table is None:
        raise Http404(_("This invite link is not valid."))
    return _waiting_room(request, table, token)


def lobby_table_seats(request: HttpRequest, table_id: int) -> HttpResponse:
    """The htmx-polled seats; once the match starts, htmx is told to go to the table page."""
    token = request.GET.get("token", "")
    if not invite_token_valid(token):
        return HttpResponseBadRequest(_(INVITE_INVALID))
    table = _table_visible(request, table_id, token)
    if table.status != Table.Status.OPEN:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = _playing_url(table, token)
        return response
    return render(
        request,
        "lobbies/_seats.html",
        {
            "card": selectors.table_card(table, request.user),
            "table": table,
            "token": token,
            "bot_levels": BOT_LEVELS,
            "is_host": request.user.is_authenticated and table.created_by_id == request.user.pk,
        },
    )


def _seat_index(request: HttpRequest) -> int | None:
    """The 0-based seat from the form; empty means "any free seat"."""
    raw = request.POST.get("seat", "").strip()
    if not raw:
        return None
    if not raw.lstrip("-").isdigit():
        raise services.LobbyRefused(_("Choose a seat by its number."))
    return int(raw)


def _after(request: HttpRequest, table_id: int) -> HttpResponse:
    """Back to where the player came from: the waiting room (or the game once started), else the Play page."""
    token = request.POST.get("token", "")
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_visible_to(table, request.user, token):
        return redirect("play")
    if table.status != Table.Status.OPEN:
        return redirect(_playing_url(table, token))
    return redirect("invite", token) if token else redirect("lobby_table", table_id)


def _lobby_action(request: HttpRequest, table_id: int, action: Callable[[], object], success: str) -> HttpResponse:
    if not invite_token_valid(request.POST.get("token", "")):
        return HttpResponseBadRequest(_(INVITE_INVALID))  # before anything changes
    # one transaction with the response: if it cannot be made, the seat was not taken either
    with transaction.atomic():
        try:
            with transaction.atomic():
                action()
        except services.LobbyRefused as exc:
            messages.error(request, str(exc))
        else:
            if success:
                messages.success(request, success)
        return _after(request, table_id)


@require_POST
@login_required
def join(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    token = request.POST.get("token", "")
    return _lobby_action(
        request,
        table_id,
        lambda: services.seat_join(table_id=table_id, user=request.user, index=_seat_index(request), token=token),
        _("You sat down."),
    )


@require_POST
@login_required
def leave(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    return _lobby_action(
        request, table_id, lambda: services.seat_leave(table_id=table_id, user=request.user), _("You left the table.")
    )


@require_POST
@login_required
def kick(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    def action() -> None:
        index = _seat_index(request)
        if index is None:
            raise services.LobbyRefused(_("Choose the seat to empty."))
        services.seat_kick(table_id=table_id, user=request.user, index=index)

    return _lobby_action(request, table_id, action, _("The seat is free again."))


@require_POST
@login_required
def add_bot(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    level = request.POST.get("level") or services.DEFAULT_BOT_LEVEL
    return _lobby_action(
        request,
        table_id,
        lambda: services.seat_add_bot(table_id=table_id, user=request.user, level=level, index=_seat_index(request)),
        _("A bot sat down."),
    )


@require_POST
@login_required
def against_bots(request: AuthenticatedRequest) -> HttpResponse:
    form = AgainstBotsForm(request.POST, games=game_choices(), levels=BOT_LEVELS)
    if not form.is_valid():
        messages.error(request, _("Choose a game and a bot level."))
        return redirect("play")
    data = form.cleaned_data
    try:
        table = services.table_against_bots(
            user=request.user,
            game=data["game"],
            seats=data["seats"],
            level=data["level"] or services.DEFAULT_BOT_LEVEL,
        )
    except services.LobbyRefused as exc:
        messages.error(request, str(exc))
        return redirect("play")
    return redirect("table", table.pk)
