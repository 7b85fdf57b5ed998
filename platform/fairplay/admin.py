"""The moderators' fair-play queue: ranked pairs, their games, replays at the telling moves, the bots' grading.

Nothing here writes a model: grading goes through ``fairplay.services`` (a Celery task), and every action
on the players goes through moderation's own pages and services (``moderation.services``), which write
the audit log: warn, ban, playban and reverse ratings on the players' act page, annul per game here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.http import AuthenticatedRequest
from accounts.models import User
from fairplay import selectors, services
from fairplay.models import GameGrade, SuspectedPair
from games import get_game
from moderation import services as moderation
from tables.labels import said_text
from tables.models import Seat

#: the actions offered on both players at once (moderation's act page: warn, ban, playban, reverse ratings)
PLAYER_ACTIONS = (
    ("warn", gettext_lazy("Warn both")),
    ("ban", gettext_lazy("Ban both")),
    ("playban", gettext_lazy("Playban both")),
    ("reverse", gettext_lazy("Reverse both players' ratings")),
)


def _replay(game_id: int, number: int) -> str:
    """The replay with the move ``number`` just made (the same address a report's move opens)."""
    return reverse("replay", args=[game_id]) + f"?step={number}"


def _may_view(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.has_perm("moderation.moderate_players")


@admin.register(SuspectedPair)
class SuspectedPairAdmin(admin.ModelAdmin):
    """Its list is the queue (the detector's pairs, ranked), each pair's page the evidence and the actions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _may_view(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _may_view(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[Any]:
        view: Callable[..., Any] = self.admin_site.admin_view
        return [
            path("scan/", view(self.scan_view), name="fairplay_scan"),
            path("pair/<int:a>/<int:b>/", view(self.pair_view), name="fairplay_pair"),
            path("pair/<int:a>/<int:b>/grade/", view(self.grade_view), name="fairplay_pair_grade"),
            path("pair/<int:a>/<int:b>/annul/", view(self.annul_view), name="fairplay_pair_annul"),
            *super().get_urls(),
        ]

    def _context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "opts": self.model._meta, "title": title}

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if not _may_view(request):
            raise PermissionDenied
        every = request.GET.get("all") == "1"
        # whether a scan is under way is read before the scan: one that ends in between is then either shown, or the
        # page still reloads to show it (read after, a scan stored and unlocked meanwhile left "no scan yet" with no
        # reload, the moderator's click answered by nothing)
        pending = selectors.pair_scan_pending()
        scan = selectors.pair_scan()  # none yet: the page says so and offers "Scan now" (a look queues nothing)
        found = selectors.scanned_pairs(scan) if scan is not None else []
        pairs = [p for p in found if every or p.flagged or p.reports]
        graded = selectors.graded_pairs()
        rows = [
            {
                "pair": p,
                "url": reverse("admin:fairplay_pair", args=[p.a, p.b]),
                "graded": graded.get((p.a, p.b)),
            }
            for p in pairs
        ]
        context = {
            **self._context(request, _("Fair-play queue")),
            "rows": rows,
            "every": every,
            "scan": scan,
            "pending": pending,
            "scan_minutes": max(1, round(services.scan_every() / 60)),
            "left_out": scan.total - len(found) if scan is not None and every else 0,
        }
        return TemplateResponse(request, "admin/fairplay/queue.html", context)

    def scan_view(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not _may_view(request):
            raise PermissionDenied
        try:
            queued = services.pair_scan_queue()
        except services.ScanUnavailable:
            messages.error(
                request, _("A scan cannot be queued right now (the server is briefly unavailable): try again shortly.")
            )
            queued = None
        if queued:
            messages.success(request, _("A scan is queued; this page shows it once it is done."))
        elif queued is not None:
            messages.info(request, _("A scan is already queued or running; this page shows it once it is done."))
        every = "?all=1" if request.POST.get("all") == "1" else ""
        return HttpResponseRedirect(reverse("admin:fairplay_suspectedpair_changelist") + every)

    def pair_view(self, request: HttpRequest, a: int, b: int) -> HttpResponse:
        if not _may_view(request):
            raise PermissionDenied
        a, b = min(a, b), max(a, b)
        shared = selectors.pair_games(a, b, annulled=True)
        if not shared:
            raise Http404("these two shared no finished game")
        score = selectors.stored_pair_score(a, b)  # None before the first scan: their games are shown all the same
        usernames = dict(User.objects.filter(pk__in=(a, b)).values_list("pk", "username"))
        grades = selectors.pair_grades(a, b)
        here = reverse("admin:fairplay_pair", args=[a, b])
        games: list[dict[str, Any]] = []
        for game, _seat_a, _seat_b in shared:
            names: dict[int, str | None] = dict(
                Seat.objects.filter(table_id=game.table_id).values_list("index", "user__username")
            )

            def seat_name(index: int, names: dict[int, str | None] = names) -> str:
                return names.get(index) or _("a bot")

            games.append(
                {
                    "game": game,
                    "title": get_game(game.table.game).title,
                    "replay": reverse("replay", args=[game.pk]),
                    "telling": [(n, _replay(game.pk, n)) for g, n in (score.decisive if score else []) if g == game.pk],
                    "grades": [_grade_row(row, seat_name) for row in grades.get(game.pk, [])],
                    "annulled": game.annulled,
                }
            )
        ids = urlencode([("ids", a), ("ids", b), ("back", here)])
        act = reverse("admin:moderation_player_act")
        context = {
            **self._context(request, _("%(a)s and %(b)s") % {"a": usernames[a], "b": usernames[b]}),
            "pair": score,
            "a": a,
            "b": b,
            "a_name": usernames[a],
            "b_name": usernames[b],
            "games": games,
            "players": [
                (usernames[a], reverse("admin:moderation_player_change", args=[a])),
                (usernames[b], reverse("admin:moderation_player_change", args=[b])),
            ],
            "actions": [(label, f"{act}?action={name}&{ids}") for name, label in PLAYER_ACTIONS],
            "can_moderate": request.user.has_perm("moderation.moderate_players"),
            "can_annul": request.user.has_perm("moderation.abort_games"),
            "ungraded": sum(1 for g in games if not g["grades"] and not g["annulled"]),
            "queue_url": reverse("admin:fairplay_suspectedpair_changelist"),
        }
        return TemplateResponse(request, "admin/fairplay/pair.html", context)

    def grade_view(self, request: HttpRequest, a: int, b: int) -> HttpResponse:
        if request.method != "POST" or not _may_view(request):
            raise PermissionDenied
        services.pair_grade_queue(min(a, b), max(a, b))
        messages.success(request, _("The bots will grade their games; reload this page in a few minutes."))
        return HttpResponseRedirect(reverse("admin:fairplay_pair", args=[min(a, b), max(a, b)]))

    def annul_view(self, request: AuthenticatedRequest, a: int, b: int) -> HttpResponse:
        if request.method != "POST" or not request.user.has_perm("moderation.abort_games"):
            raise PermissionDenied
        back = reverse("admin:fairplay_pair", args=[min(a, b), max(a, b)])
        raw = request.POST.get("game", "")
        shared = {g.pk for g, _sa, _sb in selectors.pair_games(a, b)}
        if not raw.isdigit() or int(raw) not in shared:
            messages.error(request, _("Choose one of their games."))
            return HttpResponseRedirect(back)
        try:
            moderation.game_annul(int(raw), by=request.user, reason=request.POST.get("reason", ""))
        except moderation.ModerationRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, _("Game #%(id)s annulled; ratings recomputed.") % {"id": raw})
        return HttpResponseRedirect(back)


def _grade_row(row: GameGrade, seat_name: Callable[[int], str]) -> dict[str, Any]:
    moves = [
        {
            "number": d["number"],
            "url": _replay(row.game_id, d["number"]),
            "chosen": said_text(d.get("chosen_words"), seat_name) if d.get("chosen_words") else str(d["chosen"]),
            "bot": said_text(d.get("bot_words"), seat_name) if d.get("bot_words") else str(d["bot"]),
            "cost": d["cost"],
            "gift": d["gift"],
        }
        for d in row.decisive
    ]
    return {"row": row, "name": row.user.username, "moves": moves}
