"""A banned player is signed out on his next request, from any session or device, and told until when.

Unseen warnings are shown once. The standing is cached per user and forgotten by
every sanction change, so this costs a cache read per request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _

from moderation.selectors import ban_message, ban_notice, standing, standings_kept
from moderation.services import warnings_mark_seen


class ModerationMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        with standings_kept():  # the player's standing read here serves the view's own checks
            return self._answer(request)

    def _answer(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            found = standing(user.pk)
            if found["banned"]:
                message = ban_message(user.pk)
                notice = ban_notice(user.pk)
                logout(request)
                context = {"message": message, "reason": found["ban_reason"], **notice}
                return render(request, "moderation/banned.html", context, status=403)
            if found["warnings"]:
                for reason in warnings_mark_seen(user):
                    messages.warning(
                        request,
                        _("A moderator warned you: %(reason)s (You can appeal from your reports page.)")
                        % {"reason": reason},
                    )
        return self.get_response(request)
