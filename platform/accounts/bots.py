"""The bots' names: one account per name, seated at a table so that no two bots there share one.

A bot seat is a ``Seat`` with a ``bot_level`` (what plays it) and, since bots
got names, ``user`` = one of these accounts (who it is). Ratings still go to
the one account per level (``accounts.services.BOTS``), so a name never
carries a rating of its own. Seats filled before bots had names (or by code
that still leaves ``user`` empty) get a name from the same list when shown,
again never one already at that table.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import pgettext_lazy

from accounts.models import BOT_NAME_WORDS, User

#: Slavic first names, the games' home; each is one bot account "bot-<name in lower case>", shown in the
#: reader's language's script (``BOT_NAME_WORDS``)
BOT_NAMES = (
    "Olena",
    "Bohdan",
    "Oksana",
    "Taras",
    "Iryna",
    "Mykola",
    "Svetlana",
    "Dmitri",
    "Natalka",
    "Boris",
    "Vera",
    "Ostap",
    "Galina",
    "Yaroslav",
    "Zoya",
    "Stepan",
    "Daryna",
    "Fedor",
    "Lesya",
    "Pavlo",
    "Tamara",
    "Igor",
    "Marusya",
    "Hnat",
)
#: a level as a badge beside a bot's name ("bot · strong")
LEVEL_WORDS = {
    "random": pgettext_lazy("bot level", "random"),
    "heuristic": pgettext_lazy("bot level", "steady"),
    "strong": pgettext_lazy("bot level", "strong"),
}


def bot_username(name: str) -> str:
    return f"bot-{name.lower()}"


@transaction.atomic
def ensure_named_bots() -> list[User]:
    """Every named bot account, created if missing (``manage.py bootstrap``, or on first use)."""
    wanted = {bot_username(n): n for n in BOT_NAMES}
    have = {u.username: u for u in User.objects.filter(username__in=wanted)}
    for username, name in wanted.items():
        if username not in have:
            bot, _ = User.objects.get_or_create(username=username, defaults={"display_name": name, "is_bot": True})
            if bot.has_usable_password():
                bot.set_unusable_password()
                bot.save(update_fields=["password"])
            have[username] = bot
    return [have[u] for u in wanted]


def bots_for_table(taken_user_ids: Iterable[int], count: int, rng: random.Random | None = None) -> list[User]:
    """``count`` named bot accounts, none of them among ``taken_user_ids`` (the table's seats), in random order."""
    taken = set(taken_user_ids)
    free = [u for u in ensure_named_bots() if u.pk not in taken]
    if count > len(free):
        raise ValueError(f"only {len(free)} bot names are free at this table")
    return (rng or random.Random()).sample(free, count)


def seat_names(seats: Iterable[Any]) -> dict[int, str]:
    """Seat index -> the name a page shows, for the seats of one table (``Seat`` rows with their users).

    A player or a named bot shows its account's name; a bot seat without an
    account gets a name from ``BOT_NAMES`` that no other seat of the table
    shows (where it starts in the list depends on the table, so tables differ);
    an empty seat is "".
    """
    rows = list(seats)
    out = {s.index: s.user.name for s in rows if s.user_id}
    used = set(out.values())
    for seat in rows:
        if seat.user_id or not seat.bot_level:
            out.setdefault(seat.index, "")
            continue
        start = (seat.table_id * 7 + seat.index) % len(BOT_NAMES)
        ring = [str(BOT_NAME_WORDS[BOT_NAMES[(start + k) % len(BOT_NAMES)]]) for k in range(len(BOT_NAMES))]
        out[seat.index] = next((n for n in ring if n not in used), ring[0])
        used.add(out[seat.index])
    return out
