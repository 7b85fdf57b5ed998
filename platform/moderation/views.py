from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedRequest
from accounts.models import User
from chat.views import safe_next
from moderation.models import Sanction
from moderation.selectors import APPEAL_SALT, APPEAL_TOKEN_SECONDS, reports_of, sanctions_of
from moderation.services import ModerationRefused, appeal_create, report_create


@require_POST
@login_required
def report_new(request: AuthenticatedRequest) -> HttpResponse:
    reported = User.objects.filter(username=request.POST.get("reported", "")).first()
    table = request.POST.get("table", "")
    try:
        if reported is None:
            raise ModerationRefused(_("There is no such player."))
        report_create(
            reporter=request.user,
            reported=reported,
            reason=request.POST.get("reason", ""),
            text=request.POST.get("text", ""),
            table_id=int(table) if table.isdigit() else None,
        )
    except ModerationRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("Thank you: your report was received. You will see here when it is acted on."))
    return redirect(safe_next(request, "/"))


@login_required
def my_reports(request: AuthenticatedRequest) -> HttpResponse:
    context = {"reports": reports_of(request.user), "sanctions": sanctions_of(request.user)}
    return render(request, "moderation/my_reports.html", context)


@require_POST
def appeal_new(request: HttpRequest) -> HttpResponse:
    """An appeal from the notice the player saw: signed in (a mute, a warning, a playban) or, banned and
    signed out, with the token his ban page carried."""
    raw = request.POST.get("sanction", "")
    sanction = Sanction.objects.select_related("user").filter(pk=int(raw) if raw.isdigit() else 0).first()
    user = request.user if request.user.is_authenticated else None
    if user is None and sanction is not None:
        try:
            signed = signing.loads(request.POST.get("token", ""), salt=APPEAL_SALT, max_age=APPEAL_TOKEN_SECONDS)
        except signing.BadSignature:
            signed = None
        user = sanction.user if signed == sanction.pk else None
    try:
        if sanction is None or user is None:
            raise ModerationRefused(_("There is no such sanction to appeal."))
        appeal_create(sanction, user=user, text=request.POST.get("text", ""))
    except ModerationRefused as refused:
        message = str(refused)
        ok = False
    else:
        message = _("Your appeal was sent. A moderator will answer it; you will be told.")
        ok = True
    if request.user.is_authenticated:
        (messages.success if ok else messages.error)(request, message)
        return redirect("my_reports")
    # banned: signed out, so the answer is a page of its own
    return render(request, "moderation/appeal_sent.html", {"message": message, "ok": ok}, status=200 if ok else 400)
