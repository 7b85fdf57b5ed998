"""What the chat does when the tables app reports something (``tables.signals``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from tables import relay

if TYPE_CHECKING:
    from tables.models import Match, Table


def spectators_open_on_match_finished(sender: object, table: Table, match: Match, **kwargs: object) -> None:
    """Players may read the spectators' chat once their match is over: their open pages are sent it."""
    table_id = table.pk
    transaction.on_commit(lambda: relay.table_send(table_id, {"type": "chat.spectators_open"}))
