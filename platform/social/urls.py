from django.urls import path

from social import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("friends/", views.friends, name="friends"),
    path("friends/list/", views.friends_list, name="friends_list"),
    path("u/<str:username>/friend/", views.friend, name="friend_action"),
    path("u/<str:username>/challenge/", views.challenge_new, name="challenge_new"),
    path("u/<str:username>/games/", views.profile_games, name="profile_games"),
    path("challenges/<int:challenge_id>/", views.challenge, name="challenge"),
    path("challenges/<int:challenge_id>/<str:answer>/", views.challenge_answer, name="challenge_answer"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path("profile/edit/", views.profile_edit, name="profile_edit"),
]
