"""ASGI entry point for daphne: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import contextvars
import gc
import os
import sys
from pathlib import Path

# daphne imports this module by name, so ``platform/`` must already be importable;
# this line keeps ``daphne config.asgi:application`` working from any folder too
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup(set_prefix=False)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import translation  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core.concurrency import HttpConcurrency  # noqa: E402
from core.http import OneHopASGIHandler  # noqa: E402
from core.locale import SocketLocaleMiddleware  # noqa: E402
from core.origin import SameOriginValidator  # noqa: E402
from core.proxy import TrustedProxyMiddleware  # noqa: E402
from core.sockets import SocketAuthMiddlewareStack  # noqa: E402

# the requests that run at once, and a thread or two for those that do not wait their turn (the health check)
django_asgi_app = OneHopASGIHandler(settings.WEB_HTTP_CONCURRENCY + 2 if settings.WEB_HTTP_CONCURRENCY else 32)


def _resolve_urls() -> str:
    """The health check's URL, every language's reverse tables filled on the way (a resolver fills them per
    language, at the first ``reverse`` that needs them)."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            reverse("healthz")
    return reverse("healthz")


# Filling a resolver's tables marks that in an asgiref ``Local`` of its own: a context variable per resolver (41
# here) set in the context that asks. Asked in this module's context, they would be inherited by every socket and
# request, and every hop to a thread (a move's, a request's) re-homes each of them there and back; asked in a
# copy, they stay there (and no socket's first ``reverse`` in its language fills them in its own context later).
HEALTHZ = contextvars.copy_context().run(_resolve_urls)

application = TrustedProxyMiddleware(
    ProtocolTypeRouter(
        {
            "http": HttpConcurrency(django_asgi_app, settings.WEB_HTTP_CONCURRENCY, exempt=(HEALTHZ,)),
            "websocket": SameOriginValidator(
                SocketAuthMiddlewareStack(SocketLocaleMiddleware(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)

# Everything loaded by now (Django, the apps, their modules) lives as long as the process: frozen, the cyclic
# collector stops walking it, and with a larger first generation it runs far less often. Measured on a web
# process under the HTML load test at 100 tables (gc.callbacks): 1.4 s of collections per 30 s with full
# collections of 150-270 ms, every socket of the process waiting through each; after, about 0.3-0.5 s with
# pauses up to ~40 ms.
gc.freeze()
gc.set_threshold(10_000, 20, 100)
