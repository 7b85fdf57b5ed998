"""ASGI entry point for daphne: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# daphne imports this module by name, so ``platform/`` must already be importable;
# this line keeps ``daphne config.asgi:application`` working from any folder too
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core.locale import SocketLocaleMiddleware  # noqa: E402
from core.origin import SameOriginValidator  # noqa: E402
from core.proxy import TrustedProxyMiddleware  # noqa: E402

application = TrustedProxyMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(
                AuthMiddlewareStack(SocketLocaleMiddleware(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)
