"""Settings for pytest: the real settings, with a throw-away ``var/test`` and fast hashing.

Environment variables still win, so CI runs the same suite against PostgreSQL
and a real Redis by setting ``DATABASE_URL`` and ``REDIS_URL``.
"""

import os
from pathlib import Path

# one folder per pytest process (its Redis socket, SQLite test database), so test runs
# side by side never share or stop each other's services; children inherit it
os.environ.setdefault("VAR_DIR", str(Path(__file__).resolve().parents[2] / "var" / "test" / f"run-{os.getpid()}"))
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
# the measuring app too: tests open sockets with its sessions and run every command's --help
os.environ.setdefault("MEASURE_TOOLS", "1")

from config.env import env_bool, env_float
from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# a turn timer queued by one test would fire inside a later one (game ids repeat after a flush): the tests' app
# holds turns' deadlines and bot moves back unless this is on (tests that exercise real delivery turn it on)
TURN_TASKS = env_bool("TURN_TASKS", False)
INSTALLED_APPS = [*INSTALLED_APPS, "tests.platform.turnsheld.TurnsHeld"]  # noqa: F405
# the opening turn's wait for the players' pages: off, so a test's clock starts when its table does;
# tests of that wait set it themselves
FIRST_TURN_GRACE_SECONDS = env_float("FIRST_TURN_GRACE_SECONDS", 0.0)
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
WHITENOISE_USE_FINDERS = True

# a file, not memory, so processes started by tests (Celery workers, daphne, racing movers)
# see the same test database
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405
