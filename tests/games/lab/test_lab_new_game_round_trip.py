"""The new-game form and the lab's estimate (issue 31): a host who asks for the estimate of
the setup they are typing comes back to the form as they left it (its title and phases
too), and any estimate's page opens the new-game form filled with its setup."""

import pytest
from django.urls import reverse

from tests.games.lab.test_lab_views import _post, lab_queue  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

TYPED = {
    "title": "Salem",
    "ruleset": "werewolf",
    "seats_count": "5",
    "deal_mode": "explicit",
    "cards": "werewolf\nseer\n3 x villager",
    "day_hours": "60",
    "night_hours": "20",
}  # the shuffle box left unticked


def _initial(client, key):
    response = client.get(reverse("game_new") + f"?lab={key}")
    assert response.status_code == 200
    form = response.context["form"]
    return {name: form[name].value() for name in form.fields}


def test_the_estimate_leads_back_to_the_new_game_form_as_it_was_typed(
    client, host, lab_queue, django_capture_on_commit_callbacks  # noqa: F811
):
    client.force_login(host)
    response = _post(client, {**TYPED, "from_new_game": "1"}, django_capture_on_commit_callbacks)
    page = client.get(response["Location"]).content.decode()
    key = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert f'href="{reverse("game_new")}?lab={key}"' in page
    assert "Back to your new game" in page
    values = _initial(client, key)
    assert values["title"] == "Salem" and values["ruleset"] == "werewolf"
    assert (values["day_hours"], values["night_hours"]) == ("60", "20")
    assert values["cards"] == TYPED["cards"] and values["shuffle"] is False


def test_any_estimate_offers_a_game_with_its_setup(
    client, host, lab_queue, django_capture_on_commit_callbacks  # noqa: F811
):
    client.force_login(host)
    response = _post(client, TYPED, django_capture_on_commit_callbacks)  # from the lab's page
    page = client.get(response["Location"]).content.decode()
    key = response["Location"].rstrip("/").rsplit("/", 1)[1]
    assert "Create a game with this setup" in page and "Back to your new game" not in page
    values = _initial(client, key)
    assert values["ruleset"] == "werewolf" and values["seats_count"] == 5
    assert "seer" in values["cards"] and not values["title"]
    # Another member's own estimate is not theirs to open.
    assert _initial(client, "not-an-estimate")["ruleset"] == "witchhunt"
