from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from core import outbox
        from tables import live, relay

        # a move made from a socket: its process draws the fragments every process would draw alike, once
        outbox.on_send(relay.LAYER, live.prepare_move_event)
