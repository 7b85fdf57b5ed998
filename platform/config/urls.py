from django.contrib import admin
from django.urls import include, path

from core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    # browsers and bookmarks ask for /favicon.ico whatever the page's <link rel="icon"> says
    path("favicon.ico", core_views.favicon),
    # the installable app: its manifest, and a service worker whose scope is the whole site (so at the root)
    path("manifest.webmanifest", core_views.manifest, name="manifest"),
    path("sw.js", core_views.service_worker, name="service_worker"),
    path("offline/", core_views.offline, name="offline"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("allauth.urls")),
    path("", include("lobbies.urls")),
    path("", include("tables.urls")),
    path("", include("leaderboards.urls")),
    path("", include("chat.urls")),
    path("", include("moderation.urls")),
    path("", include("social.urls")),
    path("", include("tournaments.urls")),
]
