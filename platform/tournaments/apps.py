from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tables import hooks
        from tournaments import receivers  # (connects to tables.signals)
        from tournaments.tell import table_note

        hooks.table_played_out.plug(receivers.board_is_played_out)
        hooks.table_context.add("tournaments", table_note)
