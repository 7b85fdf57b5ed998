from django.urls import path

from chat.routing import websocket_urlpatterns as chat_patterns
from core.consumers import HealthConsumer
from social.routing import websocket_urlpatterns as social_patterns
from tables.routing import websocket_urlpatterns as table_patterns
from tournaments.routing import websocket_urlpatterns as tournament_patterns

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    *table_patterns,
    *chat_patterns,
    *social_patterns,
    *tournament_patterns,
]
