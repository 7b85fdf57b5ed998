from django.apps import AppConfig


class LobbiesConfig(AppConfig):
    name = "lobbies"
    verbose_name = "Lobby"
