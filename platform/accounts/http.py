"""The request a signed-in player's view receives.

``HttpRequest.user`` is a ``User`` or an ``AnonymousUser``. A view behind
``login_required`` never sees the anonymous one, so it annotates its request
as ``AuthenticatedRequest`` and reads ``request.user`` as a ``User``; the type
exists for the checker only (the object is still Django's request), and
``tests/platform/test_typed_views.py`` proves every view so annotated turns an
anonymous visitor away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

if TYPE_CHECKING:
    from accounts.models import User


class AuthenticatedRequest(HttpRequest):
    user: User
