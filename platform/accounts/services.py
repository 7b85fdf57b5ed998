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


def session_cookie_for(user: User) -> str:
    """A logged-in session for ``user`` as a Cookie header value (scripted clients, load tests)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"  # not axes (checks logins only)
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"
