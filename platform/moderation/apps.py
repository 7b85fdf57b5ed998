from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from accounts import standing
        from moderation import receivers, selectors  # noqa: F401  (receivers: connects the signal receivers)

        standing.ban_message.plug(selectors.ban_message)
        standing.mute_message.plug(selectors.mute_message)
        standing.play_refusal.plug(selectors.play_refusal)
