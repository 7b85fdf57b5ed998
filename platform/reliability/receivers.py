"""What reliability hears from tables (connected in ``apps.ReliabilityConfig.ready``), inside its transaction."""

from __future__ import annotations

from tables.models import Match, Seat, Table


def on_seat_taken_over(sender: object, table: Table, seat: Seat, reason: str, **kwargs: object) -> None:
    from reliability.services import sitting_taken_over

    sitting_taken_over(table, seat, reason)


def on_match_finished(sender: object, table: Table, match: Match, **kwargs: object) -> None:
    from reliability.services import sittings_settle

    sittings_settle(table)
