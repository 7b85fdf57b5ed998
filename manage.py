#!/usr/bin/env python
"""Django's command-line utility; puts ``platform/`` on ``sys.path`` first."""

import os
import sys
from pathlib import Path

if __name__ == "__main__":
    # platform/ is a plain folder (the stdlib owns the name ``platform``): its
    # apps are imported as ``config``, ``accounts``, ... never ``platform.x``
    sys.path.insert(0, str(Path(__file__).resolve().parent / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
