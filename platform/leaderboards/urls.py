from django.urls import path

from leaderboards import views

urlpatterns = [
    path("leaderboards/", views.leaderboards_home, name="leaderboards"),
    path("leaderboards/biznes/seasons/", views.biznes_season_page, name="biznes_season"),
    path("leaderboards/<slug:game>/", views.leaderboard_page, name="leaderboard"),
]
