from django.urls import path

from tournaments import series_views, views

urlpatterns = [
    path("events/", views.events, name="tournaments"),
    path("events/new/", views.event_new, name="tournament_new"),
    path("events/<int:pk>/", views.event, name="tournament"),
    path("events/<int:pk>/live/", views.event_live, name="tournament_live"),
    path("events/<int:pk>/edit/", views.event_edit, name="tournament_edit"),
    path("events/<int:pk>/register/", views.register, name="tournament_register"),
    path("events/<int:pk>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("events/<int:pk>/check-in/", views.check_in, name="tournament_check_in"),
    path("events/<int:pk>/next-round/", views.next_round, name="tournament_next_round"),
    path("events/<int:pk>/pause/", views.pause, name="tournament_pause"),
    path("events/<int:pk>/resume/", views.resume, name="tournament_resume"),
    path("events/<int:pk>/announce/", views.announce, name="tournament_announce"),
    path("events/<int:pk>/settle/", views.settle, name="tournament_settle"),
    path("events/<int:pk>/disqualify/", views.disqualify, name="tournament_disqualify"),
    path("events/<int:pk>/reinstate/", views.reinstate, name="tournament_reinstate"),
    path("events/<int:pk>/withdraw-player/", views.withdraw_player, name="tournament_withdraw_player"),
    path("events/<int:pk>/restore-player/", views.restore_player, name="tournament_restore_player"),
    path("events/<int:pk>/cancel/", views.cancel, name="tournament_cancel"),
    path("events/<int:pk>/reopen/", views.reopen, name="tournament_reopen"),
    path("series/new/", series_views.series_new, name="series_new"),
    path("series/<int:pk>/", series_views.series_page, name="series"),
    path("series/<int:pk>/next/", series_views.series_next, name="series_next"),
    path("series/<int:pk>/standings.csv", series_views.series_export, name="series_export"),
    path("events/<int:pk>/results.csv", views.export, name="tournament_export"),
]
