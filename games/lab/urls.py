"""The lab's pages (included by witchhunt/urls.py): /lab/ and /lab/<address>/."""

from django.urls import path, re_path

from .views import lab, lab_result_page

urlpatterns = [
    path("lab/", lab, name="lab"),
    re_path(r"^lab/(?P<key>[0-9a-f]{32})/$", lab_result_page, name="lab_result"),
]
