from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from accounts import standing
        from core.panels import Panel
        from moderation import panels, receivers, selectors  # noqa: F401  (receivers: connects the signal receivers)
        from social import panels as social_panels
        from tables import parts as tables_parts

        standing.ban_message.plug(selectors.ban_message)
        standing.mute_message.plug(selectors.mute_message)
        standing.play_refusal.plug(selectors.play_refusal)
        standing.play_refused.plug(selectors.play_refused)
        report = "moderation/_report_form.html"
        tables_parts.table_side.add("report", Panel(report, panels.table_report_panel))
        social_panels.profile_side.add("report", Panel(report, panels.profile_report_panel))
