"""Account writes: the demo player and the bot accounts that ``make run`` ensures exist."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db import transaction

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-cards-2026"
#: rating accounts, one per bot level (the levels are played by games.bots; seated bots have names, accounts.bots)
BOTS = {"bot-random": "Random Bot", "bot-heuristic": "Heuristic Bot", "bot-strong": "Strong Bot"}


@transaction.atomic
def ensure_demo_player() -> tuple[User, bool]:
    user, created = User.objects.get_or_create(
        username=DEMO_USERNAME, defaults={"display_name": "Demo Player", "email": "demo@example.com"}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    EmailAddress.objects.update_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    return user, created


@transaction.atomic
def ensure_bot_accounts() -> list[User]:
    """The rating account of each level, and the named accounts bots sit at tables as."""
    bots = []
    for username, display in BOTS.items():
        bot, created = User.objects.get_or_create(username=username, defaults={"display_name": display, "is_bot": True})
        if created:
            bot.set_unusable_password()
            bot.save()
        bots.append(bot)
    from accounts.bots import ensure_named_bots

    return bots + ensure_named_bots()
