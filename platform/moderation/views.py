from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from chat.views import safe_next
from moderation.selectors import reports_of
from moderation.services import ModerationRefused, report_create


@require_POST
@login_required
def report_new(request: HttpRequest) -> HttpResponse:
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
def my_reports(request: HttpRequest) -> HttpResponse:
    return render(request, "moderation/my_reports.html", {"reports": reports_of(request.user)})
