"""Event pages: thin views over ``tournaments.selectors`` (reads) and ``tournaments.services`` (writes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from games import GAMES, get_game
from tournaments import organizer, selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Series, Tournament
from tournaments.scoring import scored_per_match
from tournaments.settlement import board_settle

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _invite(request: HttpRequest) -> str:
    """The invite token from the link (a page's query) or from a form that carries it on (its body)."""
    return request.POST.get("invite") or request.GET.get("invite", "")


def _visible(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=pk)
    if not selectors.visible_to(tournament, request.user, _invite(request)):
        raise Http404
    return tournament


def events(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/events.html",
        {
            "events": selectors.events(request.user),
            "organizer": services.is_organizer(request.user),
            "series": Series.objects.select_related("organizer")[:20],
        },
    )


@login_required
def event_new(request: AuthenticatedRequest) -> HttpResponse:
    if not services.is_organizer(request.user):
        messages.error(request, _("Only organizers can create events; ask the staff to add you."))
        return redirect("tournaments")
    game = request.GET.get("game") or request.POST.get("game")
    if game not in GAMES:
        return render(request, "tournaments/new.html", {"engines": [get_game(name) for name in GAMES]})
    engine = get_game(game)
    form = TournamentForm(engine, request.POST or None)
    raw_series = request.GET.get("series", "")
    series = Series.objects.filter(pk=int(raw_series), game=game).first() if raw_series.isdigit() else None
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                organizer=request.user, game=game, series=series, **form.event_values()
            )
        except services.TournamentRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Event created."))
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"engine": engine, "form": form, "series": series})


@login_required
def event_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
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
    regs = list(tournament.registrations.select_related("user"))
    may_edit = services.may_edit(tournament, user)
    entered = [r for r in regs if not r.waitlisted and not r.withdrawn]
    waiting = [r for r in regs if r.waitlisted and not r.withdrawn]
    return {
        **(_organizer_context(tournament, regs, entered) if may_edit else {}),
        "full": len(entered) >= tournament.max_players,
        "waitlist_place": next((i for i, r in enumerate(waiting, 1) if registration and r.pk == registration.pk), 0),
        "waiting": waiting,
        "entry_conditions": selectors.entry_conditions(tournament),
        "podium": selectors.podium(tournament),
        "bracket": selectors.bracket(tournament),
        "current_round": selectors.current_round(tournament),
        "tournament": tournament,
        "rows": selectors.standing_rows(tournament),
        "rounds": selectors.rounds_of(tournament),
        "registration": registration,
        "my_table": selectors.my_table(tournament, user),
        "may_edit": may_edit,
        "to_settle": selectors.boards_to_settle(tournament) if may_edit else [],
        "check_in_open": services.check_in_open(tournament),
        "announcements": tournament.announcements.all()[:10],
        "players": [r for r in entered if not r.dropped],
        "invite": _invite(request),
        "rules": selectors.rules_of(tournament),
        # the match unit in the game's own words ("2 deals"), translated here at the platform's edge
        "units_per_round": f"{n} {ngettext(*engine.unit, n)}",
        "scored_per_match": scored_per_match(tournament.game),
        # the tiebreak's count of games lost in the game's words ("Fools"); None: the game scores points
        "losses_word": pgettext("game word", engine.loss_words[1]) if engine.loss_words else None,
    }


def _organizer_context(tournament: Tournament, regs: list, entered: list) -> dict:
    """What the organizer's panel offers: whom each action may take, and what "Start now" would start with."""
    ready = [r for r in entered if not tournament.check_in_minutes or r.checked_in_at is not None]
    playing = [r for r in regs if not (r.dropped or r.disqualified or r.withdrawn or r.waitlisted)]
    playing = [r for r in playing if r.eliminated_in is None]
    return {
        "registered": [r for r in regs if not r.withdrawn],
        "withdrawn": [r for r in regs if r.withdrawn],
        "playing": playing,
        "disqualified": [r for r in regs if r.disqualified],
        "ready_count": len(ready),
        "last_round": tournament.format != Tournament.Format.KNOCKOUT and tournament.current_round >= tournament.rounds,
        "may_reopen": organizer.may_reopen(tournament),
        # the panel is swapped when any of these change, and kept (with what is typed in it) otherwise
        "panel_key": "-".join(
            str(n)
            for n in (len(ready), len(playing), sum(r.disqualified for r in regs), sum(r.withdrawn for r in regs))
        ),
    }


def event(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    return render(request, "tournaments/event.html", _event_context(request, tournament))


def event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the event page (standings, rounds, the player's table): re-read on every change."""
    tournament = _visible(request, pk)
    return render(request, "tournaments/_live.html", _event_context(request, tournament))


def _post(
    action: Callable[[AuthenticatedRequest, Tournament], object],
    success: StrOrPromise | Callable[[Any], StrOrPromise],
    confirm: bool = False,
) -> Callable[[AuthenticatedRequest, int], HttpResponse]:
    """A POST action; ``confirm``: it cannot be taken back in one click, so the form must say the organizer
    read what it does (its "Yes, ..." button sends ``confirm=yes``); without that nothing changes.
    ``success``: the message, or a callable of what the action returned."""

    @login_required
    @require_POST
    def view(request: AuthenticatedRequest, pk: int) -> HttpResponse:
        tournament = _visible(request, pk)
        if confirm and request.POST.get("confirm") != "yes":
            messages.error(request, _("Nothing was done: confirm the action with its “Yes” button."))
            return redirect(_back(tournament, request))
        try:
            done = action(request, tournament)
        except services.TournamentRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, success(done) if callable(success) else success)
        return redirect(_back(tournament, request))

    return view


def _back(tournament: Tournament, request: HttpRequest) -> str:
    invite = request.POST.get("invite", "")
    url = tournament.get_absolute_url()
    return f"{url}?invite={invite}" if invite and selectors.visible_to(tournament, request.user, invite) else url


register = _post(
    lambda r, t: services.registration_join(tournament_id=t.pk, user=r.user, token=r.POST.get("invite", "")),
    gettext_lazy("You are registered."),
)
withdraw = _post(
    lambda r, t: services.registration_withdraw(tournament_id=t.pk, user=r.user), gettext_lazy("You withdrew.")
)
check_in = _post(
    lambda r, t: services.registration_check_in(tournament_id=t.pk, user=r.user), gettext_lazy("You are checked in.")
)
NEXT_DONE = {
    "started": gettext_lazy("The event has started: round 1 is seated and every player is called to his table."),
    "started_round": gettext_lazy("The round was ended early and the next round is seated."),
    "finished": gettext_lazy("The last round was ended early: the event is finished and its standings are final."),
    "settling": gettext_lazy(
        "The round was ended early: bots play the unfinished tables out, then the next round starts."
    ),
    "awaiting organizer": gettext_lazy("The round was ended early: enter the stopped tables' results below."),
    "settled": gettext_lazy("The round was ended early: the unfinished tables were scored from their positions."),
}


def _next_round(request: AuthenticatedRequest, tournament: Tournament) -> object:
    starting = tournament.status == Tournament.Status.REGISTRATION
    done = services.tournament_next_round(tournament_id=tournament.pk, user=request.user)
    return "started" if starting else ("started_round" if done == "started" else done)


next_round = _post(_next_round, lambda done: NEXT_DONE.get(str(done), NEXT_DONE["started_round"]), confirm=True)
pause = _post(
    lambda r, t: services.tournament_pause(tournament_id=t.pk, user=r.user, paused=True),
    gettext_lazy("Paused: every table waits with its clocks stopped, and every player is told."),
)
resume = _post(
    lambda r, t: services.tournament_pause(tournament_id=t.pk, user=r.user, paused=False),
    gettext_lazy("Resumed: the tables play on, and the round's time limit moved on by the pause."),
)
announce = _post(
    lambda r, t: services.announcement_post(tournament_id=t.pk, user=r.user, text=r.POST.get("text", "")),
    gettext_lazy("Announcement sent to every table."),
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
    gettext_lazy("The table's result is recorded."),
)


def _player_id(request: HttpRequest) -> int:
    raw = request.POST.get("player", "")
    if not raw.isdigit():
        raise services.TournamentRefused(_("Choose a player."))
    return int(raw)


def _confirm_first(
    post_view: Callable[[AuthenticatedRequest, int], HttpResponse], question: StrOrPromise, consequence: StrOrPromise
) -> Callable[[AuthenticatedRequest, int], HttpResponse]:
    """GET: the page that names the chosen player and says what will happen, with its "Yes" button;
    POST (that button): the action itself."""

    @login_required
    def view(request: AuthenticatedRequest, pk: int) -> HttpResponse:
        if request.method == "POST":
            return post_view(request, pk)
        tournament = _visible(request, pk)
        if not services.may_edit(tournament, request.user):
            raise Http404
        raw = request.GET.get("player", "")
        registration = (
            tournament.registrations.select_related("user").filter(user_id=int(raw)).first() if raw.isdigit() else None
        )
        if registration is None:
            messages.error(request, _("Choose a player."))
            return redirect(tournament)
        name = str(registration.user)
        return render(
            request,
            "tournaments/confirm.html",
            {
                "tournament": tournament,
                "question": question % {"name": name},
                "consequence": consequence,
                "player": registration.user_id,
                "yes": _("Yes, %(question)s") % {"question": question % {"name": name}},
            },
        )

    return view


disqualify = _confirm_first(
    _post(
        lambda r, t: services.player_disqualify(tournament_id=t.pk, user=r.user, player_id=_player_id(r)),
        gettext_lazy("The player is disqualified and told; a bot plays his seat out. Reinstate him below to undo it."),
        confirm=True,
    ),
    gettext_lazy("disqualify %(name)s"),
    gettext_lazy(
        "He is told at once. A bot plays his seat to the end of this round; his results so far stay, and he is "
        "not seated in the next rounds. You can reinstate him later: he is then seated again from the next round."
    ),
)
reinstate = _post(
    lambda r, t: services.player_reinstate(tournament_id=t.pk, user=r.user, player_id=_player_id(r)),
    gettext_lazy("The player is reinstated and told: he is seated again from the next round."),
)
withdraw_player = _confirm_first(
    _post(
        lambda r, t: organizer.player_withdraw(tournament_id=t.pk, user=r.user, player_id=_player_id(r)),
        gettext_lazy("The player is withdrawn and told. Restore him below to undo it."),
        confirm=True,
    ),
    gettext_lazy("withdraw %(name)s from the event"),
    gettext_lazy(
        "He is told at once and will not be seated; his place goes to the first player on the waiting list. "
        "You can restore him until the start."
    ),
)
restore_player = _post(
    lambda r, t: organizer.player_restore(tournament_id=t.pk, user=r.user, player_id=_player_id(r)),
    gettext_lazy("The player's registration is restored, and he is told."),
)
cancel = _post(
    lambda r, t: organizer.tournament_cancel(tournament_id=t.pk, user=r.user),
    gettext_lazy("The event is cancelled and every registered player told. You can reopen it until its start."),
    confirm=True,
)
reopen = _post(
    lambda r, t: organizer.tournament_reopen(tournament_id=t.pk, user=r.user),
    gettext_lazy("The event is open again, with its registrations."),
)


@login_required
def export(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    if not services.may_edit(tournament, request.user):
        raise Http404
    response = HttpResponse(selectors.export_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-results.csv"'
    return response
