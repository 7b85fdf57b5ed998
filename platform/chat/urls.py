from django.urls import path

from chat import views

urlpatterns = [
    path("chat/hide/", views.hide, name="chat_hide"),
]
