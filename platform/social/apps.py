from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Social")

    def ready(self) -> None:
        from accounts import blocks
        from core.panels import Panel
        from lobbies import parts as lobby_parts
        from social import panels, receivers, selectors  # noqa: F401  (receivers: connects to tables.signals)
        from tables import parts

        blocks.blocks.plug(selectors.blocks)
        blocks.blocked_either.plug(selectors.is_blocked)
        blocks.blocked_ids.plug(selectors.blocked_ids)
        blocks.blocked_pairs.plug(selectors.blocked_pairs)
        parts.table_side.add("table_mates", Panel("social/_table_mates.html", panels.table_mates_panel))
        lobby_parts.play_page.add("watch", Panel("social/_watch.html", panels.watch_panel))
