from django.urls import path

from . import views

urlpatterns = [
    # Before allauth's own routes (witchhunt/urls.py), so this one answers its address.
    path("signup/", views.signup, name="account_signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/email/try-again/", views.email_try_again, name="email_try_again"),
    path("time-zone/", views.browser_time_zone, name="browser_time_zone"),
]
