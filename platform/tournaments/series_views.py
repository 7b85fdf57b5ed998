"""Series pages: create one, its running standings and per-event results, its next event, its CSV."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from core.forms import choice_field
from games import GAMES, get_game
from tournaments import services
from tournaments.models import Series
from tournaments.scoring import scored_per_match
from tournaments.series import series_create, series_csv, series_events, series_next_event, series_standings


class SeriesForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    description = forms.CharField(
        label=gettext_lazy("Description"), required=False, max_length=4000, widget=forms.Textarea
    )
    schedule = forms.ChoiceField(
        label=gettext_lazy("Schedule"),
        choices=[
            ("weekly", gettext_lazy("Every week, from the first event")),
            ("dates", gettext_lazy("On the dates listed below")),
        ],
        initial="weekly",
    )
    dates = forms.CharField(
        label=gettext_lazy("Dates (one a line, your local time: 2026-12-04 19:00)"),
        required=False,
        widget=forms.Textarea,
    )
    tz = forms.CharField(required=False, initial="UTC", widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "game").choices = [(name, get_game(name).title) for name in GAMES]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        try:
            zone = ZoneInfo(data.get("tz") or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo("UTC")
        listed = []
        for line in (data.get("dates") or "").splitlines():
            line = line.strip()
            if not line:
                continue
            when = parse_datetime(line.replace(" ", "T", 1) if "T" not in line else line)
            if when is None:
                self.add_error("dates", _("“%(line)s” is not a date and time like 2026-12-04 19:00.") % {"line": line})
                continue
            listed.append(when if when.tzinfo else when.replace(tzinfo=zone))
        data["listed"] = listed[:200]
        return data


@login_required
def series_new(request: AuthenticatedRequest) -> HttpResponse:
    if not services.is_organizer(request.user):
        messages.error(request, _("Only organizers can create a series; ask the staff to add you."))
        return redirect("tournaments")
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            series = series_create(
                organizer=request.user,
                name=data["name"],
                game=data["game"],
                description=data["description"],
                weekly=data["schedule"] == "weekly",
                dates=data["listed"],
            )
        except services.TournamentRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Series created: now create its first event."))
            return redirect(series)
    return render(request, "tournaments/series_new.html", {"form": form})


def series_page(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("organizer"), pk=pk)
    events, rows = series_standings(series)
    upcoming = [e for e in series_events(series) if e not in events]
    mine = request.user.is_authenticated and (request.user.is_superuser or series.organizer_id == request.user.pk)
    return render(
        request,
        "tournaments/series.html",
        {
            "series": series,
            "events": events,
            "rows": rows,
            "upcoming": upcoming,
            "mine": mine,
            "by_points": scored_per_match(series.game),
            "has_events": series.events.exists(),
        },
    )


@login_required
@require_POST
def series_next(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=pk)
    try:
        event = series_next_event(series_id=series.pk, user=request.user)
    except services.TournamentRefused as exc:
        messages.error(request, str(exc))
        return redirect(series)
    messages.success(request, _("The next event is made from the last one: check it and edit what differs."))
    return redirect(event)


def series_export(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=pk)
    if not series.events.exists():
        raise Http404
    response = HttpResponse(series_csv(series), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}-standings.csv"'
    return response
