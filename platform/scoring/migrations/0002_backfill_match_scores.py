"""Final standings for the matches that finished before the scoring app existed."""

from django.db import migrations
from django.utils import timezone


def backfill(apps, schema_editor):
    from games import GAMES, get_game

    Match = apps.get_model("tables", "Match")
    Seat = apps.get_model("tables", "Seat")
    MatchScore = apps.get_model("scoring", "MatchScore")
    rows = []
    for match in Match.objects.filter(finished=True).select_related("table").iterator(chunk_size=500):
        if match.table.game not in GAMES:
            continue
        users = dict(Seat.objects.filter(table_id=match.table_id).values_list("index", "user_id"))
        standings = get_game(match.table.game).load_sheet(match.sheet).standings()
        for seat, p in sorted(standings.items()):
            rows.append(
                MatchScore(
                    match_id=match.pk,
                    seat=seat,
                    user_id=users.get(seat),
                    game=match.table.game,
                    place=p.place,
                    won=p.won,
                    lost=p.lost,
                    points_halves=p.points_halves,
                    deals=p.deals,
                    finished_at=match.finished_at or timezone.now(),
                )
            )
    MatchScore.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
