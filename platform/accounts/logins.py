"""Who a login attempt is for and where it comes from, as django-axes counts failures.

Failures are counted per (login name, address) pair: a stranger typing wrong
passwords for someone's public username locks out only himself, not the owner;
the per-address limits (allauth's ``login_failed`` per IP) still stop one address
trying many names. The address is ``REMOTE_ADDR``, which ``core.proxy`` sets
from ``X-Forwarded-For`` only behind a trusted proxy; a forged header changes nothing.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def attempt_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    """The name typed: the admin's ``username``, allauth's ``login`` (a username or an email)."""
    credentials = credentials or {}
    data = getattr(request, "POST", {}) if request is not None else {}
    name = credentials.get("username") or credentials.get("email") or data.get("login") or data.get("username") or ""
    return str(name).strip().lower()[:255]


def attempt_address(request: HttpRequest | None) -> str | None:
    return request.META.get("REMOTE_ADDR") if request is not None else None


def lockout_until(request: HttpRequest | None, credentials: dict[str, Any] | None) -> datetime | None:
    """When the lockout of this (login name, address) pair ends: its last counted failure plus the cool-off.

    Tries during a lockout are not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off), so
    neither the right password nor more wrong ones move this time."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt

    cool_off = get_cool_off(request)
    if cool_off is None:
        return None
    last = (
        AccessAttempt.objects.filter(
            username=attempt_username(request, credentials), ip_address=attempt_address(request)
        )
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    return last + cool_off if last is not None else None


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """The lockout page, saying until when (django-axes' own page gives only the cool-off's length)."""
    until = lockout_until(request, credentials)
    minutes = max(1, math.ceil((until - timezone.now()).total_seconds() / 60)) if until else None
    context = {"until": until, "until_iso": until.isoformat() if until else "", "minutes": minutes}
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=settings.AXES_HTTP_RESPONSE_CODE)
