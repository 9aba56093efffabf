"""The lab's pages (included by witchhunt/urls.py): /lab/, /lab/<address>/ and its cancel."""

from django.urls import path, re_path

from .views import lab, lab_cancel_page, lab_result_page

urlpatterns = [
    path("lab/", lab, name="lab"),
    re_path(r"^lab/(?P<key>[0-9a-f]{32})/$", lab_result_page, name="lab_result"),
    re_path(r"^lab/(?P<key>[0-9a-f]{32})/cancel/$", lab_cancel_page, name="lab_cancel"),
]
