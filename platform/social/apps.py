from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Social")

    def ready(self) -> None:
        from social import receivers  # noqa: F401  (connects to tables.signals)
