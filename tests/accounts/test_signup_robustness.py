"""Sign-up survives what a public site meets: two people taking the same name or address
at the same moment, and a mail server that is down."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.forms import SignupForm
from accounts.models import User
from accounts.tasks import send_account_email
from tests.accounts.mail_backends import DownBackend
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-passphrase"
DOWN = "tests.accounts.mail_backends.DownBackend"


def _sign_up(client, *, email="ada@example.com", player_name="Ada_99"):
    return client.post(
        reverse("account_signup"),
        {"email": email, "player_name": player_name, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.fixture
def queued(monkeypatch):
    """The account emails handed to the broker, instead of a broker."""
    messages = []
    monkeypatch.setattr(
        send_account_email, "apply_async", lambda args, **options: messages.append(args[0])
    )
    return messages


@pytest.fixture
def rival_signs_up_meanwhile(monkeypatch):
    """A rival's sign-up commits after this form's checks passed and before its insert."""

    def arrange(**fields):
        checks = SignupForm.clean

        def clean(self):
            data = checks(self)
            UserFactory(**fields)
            return data

        monkeypatch.setattr(SignupForm, "clean", clean)

    return arrange


# --- the same name or address at the same moment ----------------------------------------------
def test_a_player_name_taken_meanwhile_is_a_form_error(
    client, rival_signs_up_meanwhile, queued, django_capture_on_commit_callbacks
):
    rival_signs_up_meanwhile(player_name="ADA_99", email="rival@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        response = _sign_up(client, player_name="Ada_99")

    assert response.status_code == 200
    assert response.context["form"].errors["player_name"] == ["That player name is already taken."]
    assert list(User.objects.values_list("email", flat=True)) == ["rival@example.com"]
    assert queued == []


def test_an_address_taken_meanwhile_gets_the_answer_a_taken_address_gets(
    client, rival_signs_up_meanwhile, queued, django_capture_on_commit_callbacks
):
    # Without a race: allauth answers as for a new account and mails the address's owner,
    # so a sign-up never tells who is a member.
    UserFactory(player_name="Owner", email="owner@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        expected = _sign_up(client, email="owner@example.com", player_name="Other")
    assert [message["to"] for message in queued] == [["owner@example.com"]]
    queued.clear()

    rival_signs_up_meanwhile(player_name="Rival", email="ada@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = _sign_up(client, email="ada@example.com", player_name="Ada_99")

    assert (response.status_code, response["Location"]) == (302, expected["Location"])
    assert not User.objects.filter(player_name="Ada_99").exists()
    assert [message["to"] for message in queued] == [["ada@example.com"]]
    assert "already" in queued[0]["subject"].lower()


# --- the mail server is down ------------------------------------------------------------------
def test_sign_up_works_while_the_mail_server_is_down_and_the_link_comes_later(
    client, settings, queued, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = DOWN

    with django_capture_on_commit_callbacks(execute=True):
        response = _sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    user = User.objects.get()
    assert [message["to"] for message in queued] == [["ada@example.com"]]

    # The server is back: the worker's next try delivers the link, and the link works.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    send_account_email(queued[0])
    (message,) = mail.outbox
    assert message.to == ["ada@example.com"] and message.subject.startswith("[Witchhunt] ")
    path = re.search(r"http://testserver(/accounts/confirm-email/\S+)", message.body).group(1)
    assert client.post(path).status_code == 302
    assert EmailAddress.objects.get(user=user).verified


def test_the_worker_tries_again_while_the_mail_server_is_down(
    client, settings, queued, django_capture_on_commit_callbacks
):
    # A password reset: the same queue carries every account email.
    UserFactory(player_name="Ada", email="ada@example.com")
    settings.EMAIL_BACKEND = DOWN
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})
    assert response.status_code == 302  # the form's answer, whatever the mail server does
    DownBackend.attempts = 0

    # As the worker runs it (eagerly here: the pauses between tries are skipped).
    result = send_account_email.apply(args=[queued[0]], throw=False)

    assert DownBackend.attempts == 1 + send_account_email.max_retries
    assert result.state == "FAILURE"
    assert send_account_email.max_retries >= 5
    assert send_account_email.retry_backoff  # growing pauses outlast a long outage


def test_a_queued_email_does_not_show_its_content_in_the_worker_logs(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    UserFactory(player_name="Ada", email="ada@example.com")
    calls = []
    monkeypatch.setattr(
        send_account_email, "apply_async", lambda args, **options: calls.append((args, options))
    )

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_reset_password"), {"email": "ada@example.com"})

    ((args, options),) = calls
    assert "/accounts/password/reset/key/" in args[0]["body"]
    # What the worker logs and monitoring show of the task's arguments: no link, no address.
    assert options["argsrepr"] and "ada@example.com" not in options["argsrepr"]
    assert "reset" not in options["argsrepr"]
