from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Platform core")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from core import dbpool

        connection_created.connect(dbpool.install, dispatch_uid="core.dbpool")
