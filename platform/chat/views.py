from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from chat.services import chat_hide


def safe_next(request: HttpRequest, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return default


@require_POST
@login_required
def hide(request: AuthenticatedRequest) -> HttpResponse:
    """Hide (or show again) every chat for oneself, on every device."""
    chat_hide(request.user, request.POST.get("hidden") == "1")
    return redirect(safe_next(request))
