"""Event pages: thin views over ``tournaments.selectors`` (reads) and ``tournaments.services`` (writes)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from games import GAMES, get_game
from tournaments import selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.scoring import scored_per_match
from tournaments.settlement import board_settle


def _visible(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=pk)
    if not selectors.visible_to(tournament, request.user, request.GET.get("invite", "")):
        raise Http404
    return tournament


def events(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/events.html",
        {"events": selectors.events(request.user), "organizer": services.is_organizer(request.user)},
    )


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    if not services.is_organizer(request.user):
        messages.error(request, _("Only organizers can create events; ask the staff to add you."))
        return redirect("tournaments")
    game = request.GET.get("game") or request.POST.get("game")
    if game not in GAMES:
        return render(request, "tournaments/new.html", {"engines": [get_game(name) for name in GAMES]})
    engine = get_game(game)
    form = TournamentForm(engine, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(organizer=request.user, game=game, **form.event_values())
        except services.TournamentRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Event created."))
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"engine": engine, "form": form})


@login_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    if not services.may_edit(tournament, request.user):
        raise Http404
    engine = get_game(tournament.game)
    form = TournamentForm(engine, request.POST or None, initial=TournamentForm.initial_from(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament_id=pk, user=request.user, **form.event_values())
        except services.TournamentRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Event saved."))
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"engine": engine, "form": form, "tournament": tournament})


def _event_context(request: HttpRequest, tournament: Tournament) -> dict:
    user = request.user
    engine = get_game(tournament.game)
    n = tournament.games_per_round
    registration = tournament.registrations.filter(user=user).first() if user.is_authenticated else None
    return {
        "tournament": tournament,
        "rows": selectors.standing_rows(tournament),
        "rounds": selectors.rounds_of(tournament),
        "registration": registration,
        "my_table": selectors.my_table(tournament, user),
        "may_edit": services.may_edit(tournament, user),
        "to_settle": selectors.boards_to_settle(tournament) if services.may_edit(tournament, user) else [],
        "check_in_open": services.check_in_open(tournament),
        "announcements": tournament.announcements.all()[:10],
        "players": tournament.registrations.select_related("user").filter(dropped=False),
        "invite": request.GET.get("invite", ""),
        "rules": selectors.rules_of(tournament),
        # the match unit in the game's own words ("2 deals"), translated here at the platform's edge
        "units_per_round": f"{n} {ngettext(*engine.unit, n)}",
        "scored_per_match": scored_per_match(tournament.game),
        # the tiebreak's count of games lost in the game's words ("Fools"); None: the game scores points
        "losses_word": pgettext("game word", engine.loss_words[1]) if engine.loss_words else None,
    }


def event(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    return render(request, "tournaments/event.html", _event_context(request, tournament))


def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the event page (standings, rounds, the player's table): re-read on every change."""
    tournament = _visible(request, pk)
    return render(request, "tournaments/_live.html", _event_context(request, tournament))


def _post(action: Callable[..., object], success: object) -> Callable[[HttpRequest, int], HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        tournament = _visible(request, pk)
        try:
            action(request, tournament)
        except services.TournamentRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, success)
        return redirect(tournament)

    return view


register = _post(
    lambda r, t: services.registration_join(tournament_id=t.pk, user=r.user, token=r.POST.get("invite", "")),
    _l("You are registered."),
)
withdraw = _post(lambda r, t: services.registration_withdraw(tournament_id=t.pk, user=r.user), _l("You withdrew."))
check_in = _post(
    lambda r, t: services.registration_check_in(tournament_id=t.pk, user=r.user), _l("You are checked in.")
)
next_round = _post(lambda r, t: services.tournament_next_round(tournament_id=t.pk, user=r.user), _l("Done."))
pause = _post(lambda r, t: services.tournament_pause(tournament_id=t.pk, user=r.user, paused=True), _l("Paused."))
resume = _post(lambda r, t: services.tournament_pause(tournament_id=t.pk, user=r.user, paused=False), _l("Resumed."))
announce = _post(
    lambda r, t: services.announcement_post(tournament_id=t.pk, user=r.user, text=r.POST.get("text", "")),
    _l("Announcement sent to every table."),
)


def _board_id(request: HttpRequest) -> int:
    raw = request.POST.get("board", "")
    if not raw.isdigit():
        raise services.TournamentRefused(_("Choose a table."))
    return int(raw)


settle = _post(
    lambda r, t: board_settle(
        tournament_id=t.pk, user=r.user, board_id=_board_id(r), entries=r.POST.getlist("entry")[:16]
    ),
    _l("The table's result is recorded."),
)


def _player_id(request: HttpRequest) -> int:
    raw = request.POST.get("player", "")
    if not raw.isdigit():
        raise services.TournamentRefused(_("Choose a player."))
    return int(raw)


disqualify = _post(
    lambda r, t: services.player_disqualify(tournament_id=t.pk, user=r.user, player_id=_player_id(r)),
    _l("The player is disqualified; a bot plays his seat out."),
)


@login_required
def export(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    if not services.may_edit(tournament, request.user):
        raise Http404
    response = HttpResponse(selectors.export_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-results.csv"'
    return response
