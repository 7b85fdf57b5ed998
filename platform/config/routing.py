from core.consumers import HealthConsumer
from django.urls import path

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
]
