from django.urls import path

from lobbies import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/tables/", views.play_tables, name="play_tables"),
    path("play/now/", views.play_now, name="play_now"),
    path("play/now/leave/", views.play_now_leave, name="play_now_leave"),
    path("play/now/form/", views.play_now_form, name="play_now_form"),
    path("play/now/queues/", views.play_now_queues, name="play_now_queues"),
    path("play/new/", views.table_new, name="table_new"),
    path("rules/", views.rules, name="rules_index"),
    path("rules/<str:game>/", views.rules, name="rules"),
    path("play/bots/", views.against_bots, name="play_against_bots"),
    path("play/bots/seats/", views.play_bot_seats, name="play_bot_seats"),
    path("play/invite/<str:token>/", views.invite, name="invite"),
    path("play/<int:table_id>/", views.lobby_table, name="lobby_table"),
    path("play/<int:table_id>/seats/", views.lobby_table_seats, name="lobby_table_seats"),
    path("play/<int:table_id>/join/", views.join, name="table_join"),
    path("play/<int:table_id>/leave/", views.leave, name="table_leave"),
    path("play/<int:table_id>/kick/", views.kick, name="table_kick"),
    path("play/<int:table_id>/bot/", views.add_bot, name="table_add_bot"),
    path("play/<int:table_id>/rematch/", views.rematch, name="table_rematch"),
]
