"""The moderators' admin: the report queue, a player's page with every action, sanctions and the audit log.

Nothing here writes a model directly: every action goes through
``moderation.services`` (which writes its audit row in the same transaction).
Reports, sanctions and the log cannot be added, edited or deleted by hand. The
abort and annul actions on the tables app's admin pages are moderation's too (below).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Count, IntegerField, Prefetch, Q, Value, When
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from moderation import services
from moderation.models import AuditEntry, Player, Report, Sanction
from moderation.selectors import player_overview
from tables.admin import GameAdmin, TableAdmin
from tables.models import Game, Table

#: ban lengths offered in one click (days); empty: permanent
BAN_CHOICES = [
    ("", gettext_lazy("Permanent")),
    ("1", gettext_lazy("1 day")),
    ("7", gettext_lazy("7 days")),
    ("30", gettext_lazy("30 days")),
]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows only services write: no add, no edit, no delete, for anybody (superusers included)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _player_link(user) -> str:
    if user is None:
        return "—"
    return format_html('<a href="{}">{}</a>', reverse("admin:moderation_player_change", args=[user.pk]), user.username)


def _parse_until(raw: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise services.ModerationRefused(_("The end time is not a valid date and time.")) from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def player_act(request: HttpRequest, users: list[User], data) -> int:
    """Apply one moderation action from a form to ``users``; returns how many it applied to."""
    action, reason, by = data.get("action", ""), data.get("reason", ""), request.user
    needed = "moderation.reverse_ratings" if action == "reverse" else "moderation.moderate_players"
    if not by.has_perm(needed):
        raise PermissionDenied
    done = 0
    for user in users:
        if action == "warn":
            services.user_warn(user, by=by, reason=reason)
        elif action == "mute":
            choice = data.get("mute", "")
            minutes = services.MUTE_CHOICES.get(choice)
            if minutes is None:
                raw = data.get("minutes", "")
                minutes = int(raw) if raw.isdigit() else 0
            services.user_mute(user, by=by, reason=reason, minutes=minutes)
        elif action == "ban":
            days, until_raw = data.get("ban_for", ""), data.get("ban_until", "")
            until = None
            if until_raw:
                until = _parse_until(until_raw)
            elif days.isdigit():
                until = timezone.now() + timedelta(days=int(days))
            services.user_ban(user, by=by, reason=reason, until=until)
        elif action == "lift":
            sanction = get_object_or_404(Sanction, pk=data.get("sanction", ""), user=user)
            services.sanction_lift(sanction, by=by, reason=reason)
        elif action == "reverse":
            services.ratings_reverse(user, by=by, reason=reason)
        else:
            raise services.ModerationRefused(_("Choose an action."))
        done += 1
    return done


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("username", "display_name", "open_reports", "sanctions_now", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    list_filter = ("is_staff",)
    actions = ["act_warn", "act_mute", "act_ban"]

    def get_queryset(self, request):
        open_q = Q(reports_against__status__in=[Report.Status.OPEN, Report.Status.ASSIGNED])
        active = Sanction.objects.filter(Sanction.active_q()).exclude(kind=Sanction.Kind.WARN)
        return (
            super()
            .get_queryset(request)
            .filter(is_bot=False)
            .annotate(open_count=Count("reports_against", filter=open_q))
            .prefetch_related(Prefetch("sanctions", queryset=active, to_attr="active_sanctions"))
        )

    @admin.display(description=gettext_lazy("open reports"), ordering="open_count")
    def open_reports(self, obj) -> int:
        return obj.open_count

    @admin.display(description=gettext_lazy("active sanctions"))
    def sanctions_now(self, obj) -> str:
        return ", ".join(str(s.get_kind_display()) for s in obj.active_sanctions) or "—"

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def get_urls(self):
        return [
            path("act/", self.admin_site.admin_view(self.act_view), name="moderation_player_act"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        player = get_object_or_404(Player, pk=object_id)
        if not self.has_view_permission(request, player):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Player %(name)s") % {"name": player.username},
            "player": player,
            "mute_choices": [
                ("10m", _("10 minutes")),
                ("1h", _("1 hour")),
                ("1d", _("1 day")),
                ("custom", _("Custom")),
            ],
            "ban_choices": BAN_CHOICES,
            "can_moderate": request.user.has_perm("moderation.moderate_players"),
            "can_reverse": request.user.has_perm("moderation.reverse_ratings"),
            **player_overview(player.pk),
        }
        return TemplateResponse(request, "admin/moderation/player/overview.html", context)

    def act_view(self, request: HttpRequest) -> HttpResponse:
        ids = request.POST.getlist("ids") if request.method == "POST" else request.GET.getlist("ids")
        users = list(User.objects.filter(pk__in=[i for i in ids if str(i).isdigit()], is_bot=False))
        if not self.has_view_permission(request) or not request.user.has_perm("moderation.moderate_players"):
            raise PermissionDenied
        back = (
            reverse("admin:moderation_player_change", args=[users[0].pk])
            if len(users) == 1
            else reverse("admin:moderation_player_changelist")
        )
        if request.method == "POST" and request.POST.get("confirm") == "1":
            try:
                done = player_act(request, users, request.POST)
            except services.ModerationRefused as refused:
                messages.error(request, str(refused))
            else:
                messages.success(request, _("Done for %(count)d player(s).") % {"count": done})
            return HttpResponseRedirect(request.POST.get("back") or back)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Moderation action"),
            "users": users,
            "action": request.GET.get("action") or request.POST.get("action", ""),
            "mute_choices": [
                ("10m", _("10 minutes")),
                ("1h", _("1 hour")),
                ("1d", _("1 day")),
                ("custom", _("Custom")),
            ],
            "ban_choices": BAN_CHOICES,
            "back": back,
        }
        return TemplateResponse(request, "admin/moderation/player/act.html", context)

    def _act(self, queryset, action: str) -> HttpResponseRedirect:
        query = "&".join(f"ids={pk}" for pk in queryset.values_list("pk", flat=True))
        return HttpResponseRedirect(f"{reverse('admin:moderation_player_act')}?action={action}&{query}")

    @admin.action(description=gettext_lazy("Warn the selected players"), permissions=["moderate"])
    def act_warn(self, request, queryset):
        return self._act(queryset, "warn")

    @admin.action(description=gettext_lazy("Mute the selected players"), permissions=["moderate"])
    def act_mute(self, request, queryset):
        return self._act(queryset, "mute")

    @admin.action(description=gettext_lazy("Ban the selected players"), permissions=["moderate"])
    def act_ban(self, request, queryset):
        return self._act(queryset, "ban")

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("moderation.moderate_players")


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    """The report queue: open reports first, grouped by the reported player, oldest first within him."""

    list_display = ("id", "reported_link", "reported_open", "reason", "status", "created_at", "assigned_to", "table")
    list_filter = ("status", "reason")
    search_fields = ("reported__username", "reporter__username", "text")
    list_display_links = ("id",)
    readonly_fields = ("reporter", "reported", "reason", "text", "table", "game", "move_number", "status", "resolution")

    def get_queryset(self, request):
        open_statuses = [Report.Status.OPEN, Report.Status.ASSIGNED]
        return (
            super()
            .get_queryset(request)
            .select_related("reported", "reporter", "assigned_to", "table")
            .annotate(
                is_closed=Case(
                    When(status__in=open_statuses, then=Value(0)), default=Value(1), output_field=IntegerField()
                ),
                open_against=Count(
                    "reported__reports_against", filter=Q(reported__reports_against__status__in=open_statuses)
                ),
            )
            .order_by("is_closed", "-open_against", "reported__username", "created_at")
        )

    @admin.display(description=gettext_lazy("reported player"), ordering="reported__username")
    def reported_link(self, obj) -> str:
        return _player_link(obj.reported)

    @admin.display(description=gettext_lazy("his open reports"))
    def reported_open(self, obj) -> int:
        return obj.open_against

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("moderation.view_report")

    def get_urls(self):
        return [
            path(
                "<int:report_id>/decide/", self.admin_site.admin_view(self.decide_view), name="moderation_report_decide"
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = get_object_or_404(Report.objects.select_related("reporter", "reported", "table", "game"), pk=object_id)
        if not self.has_view_permission(request, report):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Report #%(id)d") % {"id": report.pk},
            "report": report,
            "can_decide": request.user.has_perm("moderation.change_report"),
            "player_url": reverse("admin:moderation_player_change", args=[report.reported_id]),
        }
        return TemplateResponse(request, "admin/moderation/report/detail.html", context)

    def decide_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        if request.method != "POST" or not request.user.has_perm("moderation.change_report"):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=report_id)
        decision, text = request.POST.get("decision", ""), request.POST.get("resolution", "")
        try:
            if decision == "assign":
                services.report_assign(report, by=request.user)
            elif decision == "resolve":
                services.report_resolve(report, by=request.user, resolution=text)
            elif decision == "dismiss":
                services.report_dismiss(report, by=request.user, resolution=text)
            else:
                raise services.ModerationRefused(_("Choose a decision."))
        except services.ModerationRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, _("Report #%(id)d updated.") % {"id": report.pk})
        return HttpResponseRedirect(reverse("admin:moderation_report_change", args=[report.pk]))


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "created_at", "until", "lifted_at", "created_by", "reason")
    list_filter = ("kind",)
    search_fields = ("user__username", "created_by__username", "reason")
    date_hierarchy = "created_at"


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The mod log: searchable by moderator and by player; nobody can change it."""

    list_display = ("at", "actor_name", "action", "target_link", "reason", "details")
    list_filter = ("action",)
    search_fields = ("actor__username", "target__username", "reason")
    date_hierarchy = "at"
    list_select_related = ("actor", "target")

    @admin.display(description=gettext_lazy("moderator"), ordering="actor__username")
    def actor_name(self, obj) -> str:
        return obj.actor.username if obj.actor else _("(automatic)")

    @admin.display(description=gettext_lazy("player"), ordering="target__username")
    def target_link(self, obj) -> str:
        return _player_link(obj.target)


# -- abort and annul on the tables app's own admin pages ------------------------------------------------------


def _reason_step(request, model_admin, queryset, kind: str):
    """The intermediate page an abort or annul action needs: a reason, then the service."""
    if request.POST.get("confirm") == "1":
        done = 0
        for obj in queryset:
            try:
                if kind == "abort":
                    services.table_abort(obj.pk, by=request.user, reason=request.POST.get("reason", ""))
                else:
                    services.game_annul(obj.pk, by=request.user, reason=request.POST.get("reason", ""))
                done += 1
            except services.ModerationRefused as refused:
                model_admin.message_user(request, f"{obj}: {refused}", messages.ERROR)
        if done:
            model_admin.message_user(request, _("Done for %(count)d.") % {"count": done}, messages.SUCCESS)
        return None
    return TemplateResponse(
        request,
        "admin/moderation/reason.html",
        {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.model._meta,
            "title": _("Abort tables") if kind == "abort" else _("Annul games (no rating)"),
            "objects": queryset,
            "action": request.POST.get("action"),
        },
    )


class ModeratedTableAdmin(TableAdmin):
    actions = ["abort"]

    @admin.action(
        description=gettext_lazy("Abort the selected tables (the game stops, unrated)"), permissions=["abort"]
    )
    def abort(self, request, queryset):
        return _reason_step(request, self, queryset, "abort")

    def has_abort_permission(self, request) -> bool:
        return request.user.has_perm("moderation.abort_games")


class ModeratedGameAdmin(GameAdmin):
    actions = ["annul"]

    @admin.action(
        description=gettext_lazy("Annul the selected games (no rating; ratings recomputed)"), permissions=["abort"]
    )
    def annul(self, request, queryset):
        return _reason_step(request, self, queryset, "annul")

    def has_abort_permission(self, request) -> bool:
        return request.user.has_perm("moderation.abort_games")


# tables registered its read-only pages first (INSTALLED_APPS lists it below moderation)
for model, model_admin in ((Table, ModeratedTableAdmin), (Game, ModeratedGameAdmin)):
    admin.site.unregister(model)
    admin.site.register(model, model_admin)
