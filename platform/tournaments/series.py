"""A series: a club's running score over events of one game, weekly or on listed dates ("the pulka book").

Each event of a series is made from the one before it (every setting copied, the times moved to the
series' next date), and the series' standings sum every finished event's result per player. What a result
is worth comes from the game module, never from its name: a game whose match is scored by its own points
(``GameSpec.rated_by == "match"``: Biznes) adds each event's points in exact halves; any other game adds place
points, one per player finishing below him in that event (the last scores 0, shared places score alike).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from accounts.models import User
from core.csvcells import csv_row
from tournaments import services
from tournaments.models import Series, Tournament
from tournaments.scoring import scored_per_match
from tournaments.selectors import computed_standings
from tournaments.services import EDITABLE, TournamentRefused
from tournaments.standings import to_number

WEEK = timedelta(days=7)


@transaction.atomic
def series_create(
    *,
    organizer: User,
    name: str,
    game: str,
    description: str = "",
    weekly: bool = True,
    dates: list[datetime] | None = None,
) -> Series:
    if not services.is_organizer(organizer):
        raise TournamentRefused(_("Only organizers can create a series."))
    name = " ".join((name or "").split())[:80]
    if not name:
        raise TournamentRefused(_("A series needs a name."))
    listed = sorted(dates or [])
    if not weekly and not listed:
        raise TournamentRefused(_("List at least one date, or make the series weekly."))
    return Series.objects.create(
        organizer=organizer,
        name=name,
        game=game,
        description=description[:4000],
        weekly=weekly,
        dates=[d.isoformat() for d in listed],
    )


def series_events(series: Series) -> QuerySet[Tournament]:
    return series.events.order_by("starts_at", "pk")


def next_start(series: Series, after: datetime) -> datetime | None:
    """When the series' next event starts, after its latest one at ``after``; None when the listed dates ran out."""
    if series.weekly:
        return after + WEEK
    for raw in series.dates:
        when = parse_datetime(raw)
        if when is not None and when > after:
            return when
    return None


@transaction.atomic
def series_next_event(*, series_id: int, user: User) -> Tournament:
    """The series' next event: its latest event's settings, its start and close moved to the next date;
    registration opens now."""
    series = Series.objects.select_for_update().filter(pk=series_id).first()
    if series is None or not (user.is_superuser or series.organizer_id == user.pk):
        raise TournamentRefused(_("Only the series' organizer can add its events."))
    latest = series_events(series).last()
    if latest is None:
        raise TournamentRefused(_("Create the series' first event from the form; the next ones are made from it."))
    when = next_start(series, latest.starts_at)
    if when is None:
        raise TournamentRefused(_("The series' listed dates are all used: add a date or make it weekly."))
    shift = when - latest.starts_at
    fields: dict[str, Any] = {name: getattr(latest, name) for name in EDITABLE}
    fields["starts_at"] = when
    fields["registration_closes"] = latest.registration_closes + shift
    # the club registers for the next evening as soon as it is announced
    fields["registration_opens"] = min(timezone.now(), fields["registration_closes"] - timedelta(minutes=1))
    fields["name"] = f"{series.name} #{series.events.count() + 1}"[:80]
    return services.tournament_create(organizer=user, game=series.game, series=series, **fields)


@dataclass
class SeriesRow:
    place: int
    user_id: int
    name: str
    total: int  # halves
    #: per event (in the series' order): (place, halves) or None where he did not play
    cells: list[tuple[int, int] | None] = field(default_factory=list)

    @property
    def total_number(self) -> int | float:
        return to_number(self.total)

    @property
    def shown(self) -> list[tuple[int, int | float] | None]:
        return [None if c is None else (c[0], to_number(c[1])) for c in self.cells]

    @property
    def played(self) -> int:
        return sum(1 for c in self.cells if c is not None)


def series_standings(series: Series) -> tuple[list[Tournament], list[SeriesRow]]:
    """The running score over the series' finished events, and each player's result in each of them."""
    events = list(series_events(series).filter(status=Tournament.Status.FINISHED))
    by_points = scored_per_match(series.game)
    rows: dict[int, SeriesRow] = {}
    for index, event in enumerate(events):
        standing = computed_standings(event)
        count = len(standing)
        for s in standing:
            worth = s.points if by_points else 2 * (count - s.place)
            row = rows.get(s.player)
            if row is None:
                row = rows[s.player] = SeriesRow(
                    place=0, user_id=s.player, name="", total=0, cells=[None] * len(events)
                )
            row.total += worth
            row.cells[index] = (s.place, worth)
    from django.contrib.auth import get_user_model

    names = {
        pk: display or username
        for pk, display, username in get_user_model()
        .objects.filter(pk__in=list(rows))
        .values_list("pk", "display_name", "username")
    }
    ordered = sorted(rows.values(), key=lambda r: (-r.total, -r.played, names.get(r.user_id, "")))
    for row in ordered:
        row.name = names.get(row.user_id, "?")
        # shared places ("1224"): one more than the number of players with a strictly higher total
        row.place = 1 + sum(1 for other in ordered if other.total > row.total)
    return events, ordered


def series_csv(series: Series) -> str:
    events, rows = series_standings(series)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(csv_row(["place", "player", "total", "events"] + [e.name for e in events]))
    for row in rows:
        cells = ["" if c is None else to_number(c[1]) for c in row.cells]
        writer.writerow(csv_row([row.place, row.name, row.total_number, row.played, *cells]))
    return buffer.getvalue()
