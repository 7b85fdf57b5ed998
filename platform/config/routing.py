from django.urls import path

from core.consumers import HealthConsumer
from tables.routing import websocket_urlpatterns as table_patterns

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    *table_patterns,
]
