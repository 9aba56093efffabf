"""The operator's first admin (docs/operations.md, "Deploy"): made on the command line,
it signs in like any member, so its address is confirmed by email at the first sign-in."""

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-passphrase"


def test_the_first_admin_is_made_with_createsuperuser_and_confirms_its_address(
    client, worker, monkeypatch
):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command(
        "createsuperuser", "--noinput", "--email", "Admin@Example.org", "--player_name", "Admin"
    )
    admin = User.objects.get()
    assert (admin.email, admin.player_name) == ("admin@example.org", "Admin")
    assert admin.is_superuser and admin.is_staff

    login = {"login": "admin@example.org", "password": PASSWORD}
    with worker():  # the confirmation email goes out from the Celery worker
        response = client.post(reverse("account_login"), login)
    assert response["Location"] == reverse("account_email_verification_sent")
    [message] = mail.outbox
    assert message.to == ["admin@example.org"]
    confirm = re.search(r"http://testserver(/accounts/confirm-email/\S+)", message.body).group(1)
    assert client.post(confirm).status_code == 302

    assert client.post(reverse("account_login"), login).status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
