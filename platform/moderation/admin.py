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
from django.http import HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.http import AuthenticatedRequest
from accounts.models import User
from chat.admin import ChatMessageAdmin
from chat.models import ChatMessage
from moderation import services
from moderation.models import Appeal, AuditEntry, Player, Report, Sanction
from moderation.selectors import open_appeals, player_overview
from tables.admin import GameAdmin, TableAdmin
from tables.models import Game, Table

#: ban lengths offered in one click (days), the shortest first and chosen by default; permanent only when chosen
BAN_CHOICES = [
    ("1", gettext_lazy("1 day")),
    ("7", gettext_lazy("7 days")),
    ("30", gettext_lazy("30 days")),
    ("permanent", gettext_lazy("Permanent")),
]
MUTE_CHOICES = [
    ("10m", gettext_lazy("10 minutes")),
    ("1h", gettext_lazy("1 hour")),
    ("1d", gettext_lazy("1 day")),
    ("custom", gettext_lazy("Custom")),
]
#: playban lengths (minutes)
PLAYBAN_CHOICES = [
    ("60", gettext_lazy("1 hour")),
    ("1440", gettext_lazy("1 day")),
    ("10080", gettext_lazy("7 days")),
]
#: what the bulk actions' page may offer, each alone
BULK_ACTIONS = ("warn", "mute", "ban", "playban")


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


def player_act(request: AuthenticatedRequest, users: list[User], data: QueryDict) -> int:
    """Apply one moderation action from a form to ``users``; returns how many it applied to."""
    action, reason, by = data.get("action", ""), data.get("reason", ""), request.user
    needed = "moderation.reverse_ratings" if action == "reverse" else "moderation.moderate_players"
    if not by.has_perm(needed):
        raise PermissionDenied
    if action != "note":
        for user in users:  # all or none: a bulk action with one colleague in it changes nobody
            services.may_sanction(by, user)
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
            hide = "hour" if data.get("hide") == "hour" else ""
            services.user_mute(user, by=by, reason=reason, minutes=minutes, hide=hide)
        elif action == "ban":
            hide = "hour" if data.get("hide") == "hour" else ""
            services.user_ban(user, by=by, reason=reason, until=_ban_until(data), hide=hide)
        elif action == "playban":
            raw = data.get("playban_for", "")
            services.user_playban(user, by=by, reason=reason, minutes=int(raw) if raw.isdigit() else 0)
        elif action == "hide":
            lines = [int(i) for i in data.getlist("line") if i.isdigit()]
            services.chat_hide(user, by=by, reason=reason, lines=lines, last_hour=data.get("hide") == "hour")
        elif action == "note":
            services.note_add(user, by=by, text=data.get("note", ""))
        elif action == "lift":
            sanction = get_object_or_404(Sanction, pk=data.get("sanction", ""), user=user)
            services.sanction_lift(sanction, by=by, reason=reason)
        elif action == "reverse":
            services.ratings_reverse(user, by=by, reason=reason)
        else:
            raise services.ModerationRefused(_("Choose an action."))
        done += 1
    return done


def _ban_until(data) -> datetime | None:
    days, until_raw = data.get("ban_for", ""), data.get("ban_until", "")
    if until_raw:
        return _parse_until(until_raw)
    if days == "permanent":
        return None
    if days.isdigit() and int(days) > 0:
        return timezone.now() + timedelta(days=int(days))
    raise services.ModerationRefused(_("Choose how long the ban lasts."))


class OpenReportsFilter(admin.SimpleListFilter):
    title = gettext_lazy("open reports")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("yes", _("Has open reports"))]

    def queryset(self, request, queryset):
        return queryset.filter(open_count__gt=0) if self.value() == "yes" else queryset


class SanctionFilter(admin.SimpleListFilter):
    title = gettext_lazy("sanctions")
    parameter_name = "sanction"

    def lookups(self, request, model_admin):
        return [("active", _("Any active sanction")), *[(k, v) for k, v in Sanction.Kind.choices if k != "warn"]]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        active = Sanction.objects.filter(Sanction.active_q()).exclude(kind=Sanction.Kind.WARN)
        if value != "active":
            active = active.filter(kind=value)
        return queryset.filter(pk__in=active.values("user_id"))


def _safe_back(raw: str, default: str) -> str:
    # only a path of this admin: never an address elsewhere
    return raw if raw.startswith("/admin/") and "//" not in raw and "\\" not in raw else default


def _rated_games(users: list[User]) -> int:
    from leaderboards.models import RatingChange

    return RatingChange.objects.filter(user__in=users).values("played_game_id").distinct().count()


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("username", "display_name", "open_reports", "sanctions_now", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    list_filter = (OpenReportsFilter, SanctionFilter, "is_staff")
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
            "mute_choices": MUTE_CHOICES,
            "ban_choices": BAN_CHOICES,
            "playban_choices": PLAYBAN_CHOICES,
            "offered": BULK_ACTIONS,
            "sign_in_days": services.SIGN_IN_DAYS,
            "can_moderate": request.user.has_perm("moderation.moderate_players"),
            "can_reverse": request.user.has_perm("moderation.reverse_ratings"),
            **player_overview(player.pk),
        }
        return TemplateResponse(request, "admin/moderation/player/overview.html", context)

    def act_view(self, request: AuthenticatedRequest) -> HttpResponse:
        ids = request.POST.getlist("ids") if request.method == "POST" else request.GET.getlist("ids")
        users = list(User.objects.filter(pk__in=[i for i in ids if str(i).isdigit()], is_bot=False))
        if not self.has_view_permission(request) or not request.user.has_perm("moderation.moderate_players"):
            raise PermissionDenied
        back = (
            reverse("admin:moderation_player_change", args=[users[0].pk])
            if len(users) == 1
            else reverse("admin:moderation_player_changelist")
        )
        # another admin page (the fair-play queue's pair) may send its players here and have them come back
        back = _safe_back(request.POST.get("back") or request.GET.get("back", ""), back)
        action = request.GET.get("action") or request.POST.get("action", "")
        if request.method == "POST" and request.POST.get("confirm") == "1":
            try:
                done = player_act(request, users, request.POST)
            except services.ModerationRefused as refused:
                messages.error(request, str(refused))
            else:
                messages.success(request, _("Done for %(count)d player(s).") % {"count": done})
            return HttpResponseRedirect(back)
        if action not in (*BULK_ACTIONS, "reverse"):
            action = ""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Reverse ratings") if action == "reverse" else _("Moderation action"),
            "users": users,
            "action": action,
            # the page offers the one action chosen (a bulk "Mute" offers only mute)
            "offered": (action,) if action else BULK_ACTIONS,
            "mute_choices": MUTE_CHOICES,
            "ban_choices": BAN_CHOICES,
            "playban_choices": PLAYBAN_CHOICES,
            "reason": request.POST.get("reason", ""),
            "rated_games": _rated_games(users) if action == "reverse" else 0,
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


class GameKindFilter(admin.SimpleListFilter):
    title = pgettext_lazy("the kind of game", "game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        from tables.models import game_choices

        return game_choices()

    def queryset(self, request, queryset):
        return queryset.filter(table__game=self.value()) if self.value() else queryset


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    """The inbox: open reports first, the most reported players and the newest reports first among them;
    open appeals above the list."""

    list_display = ("id", "reported_link", "reason", "status", "when", "game_kind")
    list_filter = ("status", "reason", GameKindFilter)
    search_fields = ("reported__username", "reporter__username", "text")
    list_display_links = ("id",)
    readonly_fields = ("reporter", "reported", "reason", "text", "table", "game", "move_number", "status", "resolution")

    def get_queryset(self, request):
        open_statuses = [Report.Status.OPEN, Report.Status.ASSIGNED]
        # not super(): it orders by get_ordering's names before these annotations exist
        return (
            Report.objects.all()
            .select_related("reported", "reporter", "assigned_to", "table")
            .annotate(
                is_closed=Case(
                    When(status__in=open_statuses, then=Value(0)), default=Value(1), output_field=IntegerField()
                ),
                open_against=Count(
                    "reported__reports_against", filter=Q(reported__reports_against__status__in=open_statuses)
                ),
            )
            .order_by(*self.get_ordering(request))
        )

    def get_ordering(self, request):
        # the changelist orders by this, not by the queryset's own order (annotated in get_queryset)
        return ["is_closed", "-open_against", "-created_at", "-pk"]

    @admin.display(description=gettext_lazy("reported player (his open reports)"), ordering="-open_against")
    def reported_link(self, obj) -> str:
        return format_html("{} ({})", _player_link(obj.reported), obj.open_against)

    @admin.display(description=gettext_lazy("when, by whom"), ordering="created_at")
    def when(self, obj) -> str:
        at = timezone.localtime(obj.created_at).strftime("%Y-%m-%d %H:%M")
        return format_html("{}<br>{}", at, obj.reporter.username)

    @admin.display(description=pgettext_lazy("the kind of game", "game"), ordering="table__game")
    def game_kind(self, obj) -> str:
        if obj.table is None:
            return "—"
        url = reverse("table", args=[obj.table_id])
        return format_html('<a href="{}">{} #{}</a>', url, obj.table.get_game_display(), obj.table_id)

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("moderation.view_report")

    def changelist_view(self, request, extra_context=None):
        extra = {"appeals": open_appeals(), **(extra_context or {})}
        return super().changelist_view(request, extra_context=extra)

    def get_urls(self):
        return [
            path(
                "<int:report_id>/decide/", self.admin_site.admin_view(self.decide_view), name="moderation_report_decide"
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = get_object_or_404(
            Report.objects.select_related("reporter", "reported", "table", "game", "sanction"), pk=object_id
        )
        if not self.has_view_permission(request, report):
            raise PermissionDenied
        hidden = set(
            ChatMessage.objects.filter(
                pk__in=[line.get("id") for line in report.context.get("chat", []) if isinstance(line.get("id"), int)],
                hidden_at__isnull=False,
            ).values_list("pk", flat=True)
        )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Report #%(id)d") % {"id": report.pk},
            "report": report,
            "hidden_lines": hidden,
            "can_decide": request.user.has_perm("moderation.change_report"),
            "can_moderate": request.user.has_perm("moderation.moderate_players"),
            "player_url": reverse("admin:moderation_player_change", args=[report.reported_id]),
            "lines_url": reverse("admin:chat_chatmessage_changelist") + f"?user__id__exact={report.reported_id}",
            "replay_url": _replay_url(report),
            "offered": BULK_ACTIONS,
            "mute_choices": MUTE_CHOICES,
            "ban_choices": BAN_CHOICES,
            "playban_choices": PLAYBAN_CHOICES,
            "hide_checked": report.reason == Report.Reason.ABUSE,
            "reason": _("Report #%(id)d (%(reason)s): %(text)s")
            % {"id": report.pk, "reason": report.get_reason_display(), "text": report.text or "—"},
            "back": reverse("admin:moderation_report_change", args=[report.pk]),
        }
        return TemplateResponse(request, "admin/moderation/report/detail.html", context)

    def decide_view(self, request: AuthenticatedRequest, report_id: int) -> HttpResponse:
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


def _replay_url(report: Report) -> str:
    """The replay at the reported move, once the game is over (a running game has only its table)."""
    from tables.models import Game

    if report.game is None or report.game.status != Game.Status.FINISHED:
        return ""
    return reverse("replay", args=[report.game_id]) + f"?step={report.move_number or 0}"


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdmin):
    """Appeals against sanctions; each opens on its sanction, its audit row and the answer form."""

    list_display = ("id", "user", "sanction", "created_at", "decision", "answered_by")
    list_filter = ("decision",)
    search_fields = ("user__username", "text")
    list_select_related = ("user", "sanction", "answered_by")

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("moderation.moderate_players")

    def has_module_permission(self, request) -> bool:
        return request.user.has_perm("moderation.moderate_players")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        appeal = get_object_or_404(
            Appeal.objects.select_related("user", "sanction__created_by", "audit__actor", "answered_by"), pk=object_id
        )
        if not self.has_view_permission(request, appeal):
            raise PermissionDenied
        if request.method == "POST":
            try:
                until = _parse_until(request.POST["until"]) if request.POST.get("until") else None
                services.appeal_answer(
                    appeal,
                    by=request.user,
                    decision=request.POST.get("decision", ""),
                    answer=request.POST.get("answer", ""),
                    until=until,
                )
            except services.ModerationRefused as refused:
                messages.error(request, str(refused))
            else:
                messages.success(request, _("The player was told your answer."))
            return HttpResponseRedirect(reverse("admin:moderation_appeal_change", args=[appeal.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Appeal #%(id)d") % {"id": appeal.pk},
            "appeal": appeal,
            "player_url": reverse("admin:moderation_player_change", args=[appeal.user_id]),
            "can_answer": appeal.is_open,
        }
        return TemplateResponse(request, "admin/moderation/appeal/detail.html", context)


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


admin.site.unregister(ChatMessage)


@admin.register(ChatMessage)
class ModeratedChatAdmin(ChatMessageAdmin):
    """The chat lines list with the moderators' "hide" (chat cannot reach moderation's audit log itself)."""

    list_display = (*ChatMessageAdmin.list_display, "hidden_at")
    list_filter = (*ChatMessageAdmin.list_filter, ("hidden_at", admin.EmptyFieldListFilter))
    actions = ["hide_lines"]

    @admin.action(description=gettext_lazy("Hide the selected lines"), permissions=["moderate"])
    def hide_lines(self, request, queryset):
        if request.POST.get("confirm") != "1":
            return TemplateResponse(
                request,
                "admin/moderation/chat_hide.html",
                {
                    **self.admin_site.each_context(request),
                    "opts": self.model._meta,
                    "title": _("Hide chat lines"),
                    "lines": queryset.select_related("user"),
                },
            )
        reason, hidden = request.POST.get("reason", ""), 0
        by_user: dict[int, list[int]] = {}
        for line in queryset:
            by_user.setdefault(line.user_id, []).append(line.pk)
        for user in User.objects.filter(pk__in=by_user):
            try:
                hidden += services.chat_hide(user, by=request.user, reason=reason, lines=by_user[user.pk])
            except services.ModerationRefused as refused:
                self.message_user(request, f"{user.username}: {refused}", messages.ERROR)
        if hidden:
            self.message_user(request, _("Hid %(count)d line(s).") % {"count": hidden}, messages.SUCCESS)
        return None

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm("moderation.moderate_players")
