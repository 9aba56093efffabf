import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_admin_login_sends_visitors_to_the_rate_limited_sign_in(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=%2Fadmin%2F"


def test_admin_open_to_signed_in_staff(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.get("/admin/accounts/user/")
    assert response.status_code == 200


def test_admin_forbidden_to_members_who_are_not_staff(client):
    client.force_login(UserFactory())
    response = client.get("/admin/", follow=True)
    assert response.status_code == 403


def _add_user(client, player_name):
    return client.post(
        "/admin/accounts/user/add/",
        {
            "email": f"{player_name.lower()}@example.com",
            "player_name": player_name,
            "usable_password": "true",
            "password1": "a-long-and-unusual-passphrase",
            "password2": "a-long-and-unusual-passphrase",
        },
    )


def test_admin_adds_a_member_with_a_player_name(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = _add_user(client, "Newcomer")

    assert response.status_code == 302
    assert User.objects.get(email="newcomer@example.com").player_key == "newcomer"


def test_admin_refuses_a_player_name_taken_in_another_case(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True, player_name="Boss"))

    response = _add_user(client, "BOSS")

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["player_name"] == [
        "That player name is already taken."
    ]
