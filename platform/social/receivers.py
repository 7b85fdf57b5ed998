"""What the social app does when the tables app reports something (see ``tables.signals``)."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from tables.models import Game, Seat, Table
from tables.selectors import game_ui
from tables.signals import turn_started


@receiver(turn_started, sender=Table)
def notify_turn(
    sender: object, table: Table, game: Game, seats: list[int], seat_rows: dict[int, Seat], **kwargs: object
) -> None:
    """ "Your turn" to the humans now to act (not those a bot stands in for), after the move commits."""
    from social.services import turn_notify

    # the rows the turn's start read: no query per turn (a bot account always sits with its level)
    users = [s.user_id for s in (seat_rows[i] for i in seats) if s.user_id and not s.away and not s.is_bot]
    if not users:
        return
    # the game's title as ``get_game_display`` gives it, kept per language with the game's other words, not the
    # field's choices made and hashed again for every turn (26-27 us of the move's thread)
    title, table_id = game_ui(table.game)["title"], table.pk

    def push() -> None:
        for uid in users:
            turn_notify(uid, table_id, title)

    transaction.on_commit(push)
