from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReliabilityConfig(AppConfig):
    name = "reliability"
    verbose_name = _("Reliability")

    def ready(self) -> None:
        # reliability listens to tables and answers its seats; tables never imports it
        from reliability import receivers
        from reliability.selectors import reliability_marks
        from tables import hooks
        from tables.models import Table
        from tables.signals import match_finished, seat_taken_over

        seat_taken_over.connect(receivers.on_seat_taken_over, sender=Table, dispatch_uid="reliability.taken_over")
        match_finished.connect(receivers.on_match_finished, sender=Table, dispatch_uid="reliability.match_end")
        hooks.seat_reliability.plug(reliability_marks)
