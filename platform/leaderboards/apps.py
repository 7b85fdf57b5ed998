from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = "Ratings and leaderboards"
