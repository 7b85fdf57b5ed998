from django.urls import path

from moderation import views

urlpatterns = [
    path("report/", views.report_new, name="report_new"),
    path("reports/", views.my_reports, name="my_reports"),
    path("appeal/", views.appeal_new, name="appeal_new"),
]
