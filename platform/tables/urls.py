from django.urls import path

from tables import views

urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/away/", views.table_away, name="table_away"),
    path("tables/<int:table_id>/resign/", views.table_resign_view, name="table_resign"),
    path("games/<int:game_id>/replay", views.replay_page, name="replay"),
]
