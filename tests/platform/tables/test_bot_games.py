"""Bot games of every type run to the end through a real Celery worker."""

import pytest

from tables.models import Game, Seat, Table
from tables.services import match_start
from tests.platform.helpers import wait_until
from tests.platform.tables.factories import make_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.mark.parametrize(
    ("game", "seats", "levels"),
    [
        ("durak", 2, ["heuristic", "random"]),
        ("biznes", 4, ["heuristic", "random", "heuristic", "random"]),
        ("verish", 3, ["heuristic", "random", "strong"]),
    ],
)
def test_a_table_of_bots_plays_to_the_end(celery_worker_process, settings, game, seats, levels):
    settings.TURN_TASKS = True  # the first bot move is delivered by Celery, as in production
    host = make_players(1, prefix=f"host-{game}-")[0]
    table = Table.objects.create(game=game, seats_count=seats, created_by=host, rated=False)
    for index, level in enumerate(levels):
        Seat.objects.create(table=table, index=index, bot_level=level)
    match_start(table)  # the first bot move is queued after this commit
    assert wait_until(lambda: Table.objects.get(pk=table.pk).status == Table.Status.FINISHED, 180, 0.5), (
        f"still playing after 180 s at move {Game.objects.filter(table=table).last().move_number}"
    )
    for played in Game.objects.filter(table=table):
        assert played.status == Game.Status.FINISHED and played.result is not None
        assert set(played.moves.values_list("by", flat=True)) == {"bot"}
