"""A URLconf whose one view fails, to see the 500 page as a visitor would."""

from django.urls import path


def fail(request):
    raise RuntimeError("a bug")


urlpatterns = [path("fail/", fail)]
