from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = _("Ratings and leaderboards")

    def ready(self) -> None:
        # ratings listen to tables; tables never import leaderboards
        from leaderboards.selectors import rating_changes_of_match, ratings_at_seats
        from leaderboards.services import rating_on_game_finished
        from tables import hooks
        from tables.models import Table
        from tables.signals import game_finished

        game_finished.connect(rating_on_game_finished, sender=Table, dispatch_uid="leaderboards.rate_game")
        hooks.match_rating_changes.plug(rating_changes_of_match)
        hooks.seat_ratings.plug(ratings_at_seats)
