"""Events and a way to play their rounds out in-process (bots standing in for absent players)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import Group
from django.utils import timezone

from tables.models import Game, Seat
from tables.services import game_play_bot, seat_set_away
from tests.platform.tables.factories import make_players
from tournaments import services
from tournaments.models import ORGANIZERS_GROUP, Board, Tournament


def organizer(name: str = "org"):
    from accounts.models import User

    user = make_players(1, prefix=f"{name}{User.objects.count()}-")[0]
    user.groups.add(Group.objects.get_or_create(name=ORGANIZERS_GROUP)[0])  # a flushed test database lacks it
    return user


def event(owner, **fields: Any) -> Tournament:
    now = timezone.now()
    values: dict[str, Any] = {
        "name": "Friday Durak",
        "game": "durak",
        "table_size": 4,
        "format": Tournament.Format.SWISS,
        "fill": Tournament.Fill.BOTS,
        "advance": 2,
        "rounds": 2,
        "games_per_round": 1,
        "min_players": 2,
        "max_players": 64,
        "registration_opens": now - timedelta(hours=1),
        "starts_at": now + timedelta(hours=1),
        "options": {},
        "match_options": {},  # the game's defaults
    }
    values.update(fields)
    values.setdefault("registration_closes", values["starts_at"])
    return services.tournament_create(organizer=owner, **values)


def play_round_out(tournament: Tournament, rng: random.Random | None = None) -> None:
    """Every human of the current round goes away; bots (and stand-ins) play each table to its end."""
    rng = rng or random.Random(5)
    boards = list(Board.objects.filter(round__tournament=tournament, round__number=tournament.current_round))
    for board in boards:
        for seat in Seat.objects.filter(table_id=board.table_id, user__isnull=False).select_related("user"):
            seat_set_away(board.table_id, seat.user, True)
    for board in boards:
        for _ in range(20000):
            game = Game.objects.filter(table_id=board.table_id, status=Game.Status.PLAYING).first()
            if game is None:
                break
            game_play_bot(game.pk, game.move_number, rng)
        else:
            raise AssertionError("a table never finished")


def stamp(dt) -> str:
    """A time as a datetime-local input sends it."""
    return dt.strftime("%Y-%m-%dT%H:%M")


def post_event_form(client, game: str, starts_at, query: str = "", **fields: Any):
    """What the create-an-event form posts when its organizer changes only ``fields``: the engine's own rules
    as the form offers them, registration open from two hours before until the start."""
    from django.urls import reverse

    url = reverse("tournament_new") + f"?game={game}{query}"
    form = client.get(url).context["form"]
    values: dict[str, Any] = {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial is not None and field.initial is not False  # an unticked box is not sent
    }
    for name, field in form.fields.items():
        choices = list(getattr(field, "choices", []))
        if name not in values and choices:
            values[name] = choices[0][0]  # a select sends its first option
    values.update(
        {
            "table_size": 4,
            "turn_seconds": 60,
            "time_bank_seconds": 0,
            "round_minutes": 0,
            "settle": "bots",
            "bot_level": "heuristic",
            "registration_opens": stamp(starts_at - timedelta(hours=2)),
            "registration_closes": stamp(starts_at),
            "starts_at": stamp(starts_at),
            "check_in_minutes": 0,
            "no_show": "remove",
            "min_players": 2,
            "max_players": 20,
            "tz": "UTC",
            **fields,
        }
    )
    return client.post(url, values)
