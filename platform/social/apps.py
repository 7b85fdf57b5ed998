from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Social")

    def ready(self) -> None:
        from accounts import blocks
        from social import receivers, selectors  # noqa: F401  (receivers: connects to tables.signals)

        blocks.blocks.plug(selectors.blocks)
        blocks.blocked_either.plug(selectors.is_blocked)
