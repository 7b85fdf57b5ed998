"""Who a login attempt is for and where it comes from, as django-axes counts failures.

Failures are counted per (login name, address) pair: a stranger typing wrong
passwords for someone's public username locks out only himself, not the owner;
the per-address limits (allauth's ``login_failed`` per IP) still stop one address
trying many names. The address is ``REMOTE_ADDR``, which ``core.proxy`` sets
from ``X-Forwarded-For`` only behind a trusted proxy; a forged header changes nothing.
"""

from __future__ import annotations


def attempt_username(request, credentials: dict | None) -> str:
    """The name typed: the admin's ``username``, allauth's ``login`` (a username or an email)."""
    credentials = credentials or {}
    data = getattr(request, "POST", {}) if request is not None else {}
    name = credentials.get("username") or credentials.get("email") or data.get("login") or data.get("username") or ""
    return str(name).strip().lower()[:255]


def attempt_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") if request is not None else None
