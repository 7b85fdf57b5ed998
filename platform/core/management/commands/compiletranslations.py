"""Compile the project's and its apps' ``locale/*/LC_MESSAGES/*.po`` to ``.mo`` with polib (no GNU gettext).

``make run`` and ``make test`` call it when a ``.po`` file changed; the ``.mo``
files are build output and stay out of git. (Editing translations still uses
``manage.py makemessages``, ours in ``core``, which needs gettext's ``xgettext``.)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the committed .po translations to .mo files"

    def handle(self, *args: Any, **options: Any) -> None:
        import polib

        count = 0
        ours = Path(settings.BASE_DIR) / "platform"
        # the project's catalogs and those of our own apps (not the installed libraries', which ship compiled)
        app_dirs = [Path(c.path) / "locale" for c in apps.get_app_configs() if Path(c.path).is_relative_to(ours)]
        for root in [*map(Path, settings.LOCALE_PATHS), *app_dirs]:
            for po_path in sorted(root.glob("*/LC_MESSAGES/*.po")):
                po = polib.pofile(str(po_path))
                # written aside and renamed over: a process reading the catalogs meanwhile (another test run,
                # a platform starting) finds the old file or the new one, never a half-written one
                mo_path = po_path.with_suffix(".mo")
                partial = mo_path.with_name(f".{mo_path.name}.{os.getpid()}")
                partial.write_bytes(po.to_binary())
                os.replace(partial, mo_path)
                count += 1
                if options["verbosity"] > 1:
                    self.stdout.write(f"{po_path}: {po.percent_translated()}% translated")
        self.stdout.write(f"compiled {count} translation file(s)")
