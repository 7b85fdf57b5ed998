from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairplayConfig(AppConfig):
    name = "fairplay"
    verbose_name = _("Fair play")
