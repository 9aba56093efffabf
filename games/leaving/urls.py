from django.urls import path

from . import views

urlpatterns = [
    path("me/data.json", views.member_export_download, name="member_export"),
    path("me/leave/", views.member_leave, name="member_leave"),
    path("left/", views.member_left, name="member_left"),
]
