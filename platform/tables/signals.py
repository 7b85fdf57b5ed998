"""What the tables app tells the rest of the platform, sent inside the move's transaction.

Receivers run in the sender's transaction, so a receiver's writes (ratings,
standings, audit rows) commit or roll back with the move; anything that must
reach a socket or a Celery queue is scheduled with ``transaction.on_commit``.
Every signal is sent with ``sender=Table`` (the model class) and keyword
arguments only; receivers must accept ``**kwargs``. What tables asks rather
than tells is in ``tables.hooks``.
"""

from __future__ import annotations

from django.dispatch import Signal

#: a game of a match ended: ``table``, ``game`` (tables.models.Game, result stored), ``state`` (engine state)
game_finished = Signal()
#: the last game of a match ended (sent after ``game_finished``): ``table``, ``match`` (sheet final)
match_finished = Signal()
#: a table was stopped before its end (``tables.services.table_stop``): ``table``, ``game`` (the running one, or
#: None), ``by`` (the moderator, or None), ``stop_reason`` ("moderator", "left", or "" for another reason)
table_stopped = Signal()
#: a bot took over a human's seat: ``table``, ``seat`` (tables.models.Seat), ``reason``: "left" (the player's
#: Leave), "timeouts" (two in a row), "banned" (a moderator), "disqualified" (a tournament's organizer), "deadline"
#: (a tournament round's time is up), "resigned" (the player resigned: for good)
seat_taken_over = Signal()
#: a new turn began: ``table``, ``game``, ``seats`` (the seat indexes to act now), ``seat_rows``
#: (the table's Seat rows by index, as the turn's start read them); a new game's first turn is started before
#: its row is inserted, so ``game.pk`` may still be None then (read it after the commit)
turn_started = Signal()
