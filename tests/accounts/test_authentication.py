import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-passphrase"


def _sign_up(client, *, email="ada@example.com", player_name="Ada_99"):
    return client.post(
        reverse("account_signup"),
        {"email": email, "player_name": player_name, "password1": PASSWORD, "password2": PASSWORD},
    )


def _is_signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def _link_in(message, path_prefix: str) -> str:
    match = re.search(rf"http://testserver({re.escape(path_prefix)}\S+)", message.body)
    assert match, message.body
    return match.group(1)


def test_signup_verify_then_login_by_email_signs_in(client, worker):
    with worker():  # the verification email goes out from the Celery worker
        response = _sign_up(client, email="Ada@Example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")

    user = User.objects.get()
    assert (user.email, user.player_name, user.player_key) == (
        "ada@example.com",
        "Ada_99",
        "ada_99",
    )
    assert not _is_signed_in(client)
    assert [message.to for message in mail.outbox] == [["ada@example.com"]]

    confirm_path = _link_in(mail.outbox[0], "/accounts/confirm-email/")
    assert (
        client.get(confirm_path).status_code == 200
    )  # a page with a button, not a GET side effect
    assert client.post(confirm_path).status_code == 302
    assert EmailAddress.objects.get(user=user).verified

    response = client.post(
        reverse("account_login"), {"login": "ADA@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_refused_until_email_verified(client):
    _sign_up(client)
    mail.outbox.clear()

    response = client.post(
        reverse("account_login"), {"login": "ada@example.com", "password": PASSWORD}
    )

    assert response["Location"] == reverse("account_email_verification_sent")
    assert not _is_signed_in(client)


def test_login_with_wrong_password_is_refused(client):
    member = UserFactory()
    response = client.post(reverse("account_login"), {"login": member.email, "password": "wrong"})
    assert response.status_code == 200
    assert not _is_signed_in(client)


def test_repeated_failed_logins_lock_the_account_for_a_while(client):
    member = UserFactory()
    for _ in range(5):  # allauth's default: 5 failures per account per 5 minutes
        client.post(reverse("account_login"), {"login": member.email, "password": "wrong"})

    response = client.post(
        reverse("account_login"), {"login": member.email, "password": DEFAULT_PASSWORD}
    )

    assert not _is_signed_in(client)
    assert "Too many failed login attempts" in response.content.decode()


def test_login_of_verified_member_by_email(client):
    member = UserFactory()
    client.post(reverse("account_login"), {"login": member.email, "password": DEFAULT_PASSWORD})
    assert client.session["_auth_user_id"] == str(member.pk)


@pytest.mark.parametrize(
    "player_name",
    ["has space", "dash-name", "Émile", "dot.name", "a", "x" * 25, "semi;colon"],
)
def test_signup_refuses_bad_player_name(client, worker, player_name):
    with worker():
        response = _sign_up(client, player_name=player_name)

    assert response.status_code == 200
    assert response.context["form"].errors["player_name"]
    assert not User.objects.exists()
    assert mail.outbox == []


def test_signup_refuses_player_name_taken_in_another_case(client):
    UserFactory(player_name="Ada")

    response = _sign_up(client, player_name="aDA")

    assert response.context["form"].errors["player_name"] == ["That player name is already taken."]
    assert User.objects.count() == 1


def test_player_key_unique_in_database_whatever_the_case():
    UserFactory(player_name="Salem")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(email="other@example.com", password="x", player_name="SALEM")


def test_player_key_follows_a_renamed_player():
    member = UserFactory(player_name="Old_Name")
    member.player_name = "New_Name"
    member.save(update_fields=["player_name"])
    member.refresh_from_db()
    assert member.player_key == "new_name"


def test_password_reset_mails_a_link_that_sets_a_new_password(client, worker):
    member = UserFactory()

    with worker():
        client.post(reverse("account_reset_password"), {"email": member.email})

    assert [message.to for message in mail.outbox] == [[member.email]]
    reset_path = _link_in(mail.outbox[0], "/accounts/password/reset/key/")
    # allauth moves the key out of the URL into the session, then shows the form.
    form_page = client.get(reset_path, follow=True)
    new_password = "another-long-passphrase"
    client.post(
        form_page.redirect_chain[-1][0],
        {"password1": new_password, "password2": new_password},
    )
    member.refresh_from_db()
    assert member.check_password(new_password)
