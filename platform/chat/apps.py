from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from chat import consumers, panels, receivers
        from core.panels import Panel
        from tables import parts
        from tables.models import Table
        from tables.signals import match_finished

        parts.table_side.add("chat", Panel("chat/_table.html", panels.table_chat_panel))
        parts.replay_side.add("chat", Panel("chat/_replay.html", panels.replay_chat_panel))
        parts.socket_parts.add("chat", consumers.TABLE_SOCKET_PART)
        match_finished.connect(
            receivers.spectators_open_on_match_finished, sender=Table, dispatch_uid="chat.spectators_open"
        )
