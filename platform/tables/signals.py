"""What the tables app tells the rest of the platform, sent inside the move's transaction.

Receivers run in the sender's transaction, so a receiver's writes (ratings,
standings, audit rows) commit or roll back with the move; anything that must
reach a socket or a Celery queue is scheduled with ``transaction.on_commit``.
Every signal is sent with ``sender=Table`` (the model class) and keyword
arguments only; receivers must accept ``**kwargs``.
"""

from __future__ import annotations

from django.dispatch import Signal

#: a game of a match ended: ``table``, ``game`` (tables.models.Game, result stored), ``state`` (engine state)
game_finished = Signal()
#: the last game of a match ended (sent after ``game_finished``): ``table``, ``match`` (sheet final)
match_finished = Signal()
#: a bot took over a human's seat: ``table``, ``seat`` (tables.models.Seat), ``reason``: "left" (the player's
#: Leave), "timeouts" (two in a row), "banned" (a moderator), "disqualified" (a tournament's organizer), "deadline"
#: (a tournament round's time is up), "resigned" (the player resigned: for good)
seat_taken_over = Signal()
#: a table was stopped before its end (moderator abort, all humans gone): ``table``, ``game`` or None,
#: ``by`` (a user or None), ``reason`` (text)
table_aborted = Signal()
#: a new turn began (wave2 social): ``table``, ``game``, ``seats`` (the seat indexes to act now), ``seat_rows``
#: (the table's Seat rows by index, as the turn's start read them)
turn_started = Signal()
#: asked, not told: ``match_id`` of a finished match; a receiver (the ratings app) returns
#: {user id: how much his shown rating moved over that match} for the end-of-match banner
match_rating_changes = Signal()
#: asked, not told: ``table_id`` of a table whose human players have all left; a receiver answering True keeps
#: it playing with bots (a tournament's board needs a result) instead of ending it at once
table_played_out = Signal()
