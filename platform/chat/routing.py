from django.urls import path

from chat.consumers import LobbyChatConsumer

websocket_urlpatterns = [
    path("ws/chat/lobby/", LobbyChatConsumer.as_asgi()),
]
