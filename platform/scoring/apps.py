from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Match score sheets and standings")

    def ready(self) -> None:
        # scoring listens to tables; tables only calls the sheet services it needs inside a move
        from scoring.services import scores_on_match_finished
        from tables.models import Table
        from tables.signals import match_finished

        match_finished.connect(scores_on_match_finished, sender=Table, dispatch_uid="scoring.match_scores")
