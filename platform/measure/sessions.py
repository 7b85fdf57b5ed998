"""Signed-in sessions forged for scripted clients: the load and flood tests' players, and the tests' sockets.

A session made without a login is what makes this a tool: it lives here, in the measuring app that production
does not install, and never in ``accounts``.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from accounts.models import User


def session_cookie_for(user: User) -> str:
    """A logged-in session for ``user`` as a Cookie header value."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"  # not axes (checks logins only)
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"
