from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Social"

    def ready(self) -> None:
        from social import receivers  # noqa: F401  (connects to tables.signals)
