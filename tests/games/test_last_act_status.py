"""A last act chosen by night (W-14) waits for the night's resolution, its holder offstage
until then (W-14a): the card table of those who see every action as it happens (the
afterlife, W-17; the moderator's desk) says it is chosen, no longer "unused". No living
player's page says either."""

import pytest
from django.urls import reverse

from games import services
from tests.games.afterlife_cast import page_text
from tests.games.test_rooms_views import day_3  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

UNUSED = "Dead (offstage, last act unused)"
CHOSEN = "Dead (offstage, last act chosen: it resolves at dawn)"


def _text(client, user, url):
    client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    return page_text(response.content.decode())


def test_a_last_act_chosen_by_night_reads_as_chosen_to_the_dead_and_the_desk(
    client, day_3, moderator  # noqa: F811
):
    game, users = day_3
    services.phase_advance(game=game, by=moderator)  # Night 3: Dan's last act still usable
    afterlife = reverse("game_afterlife", args=[game.pk])
    desk = reverse("game_desk", args=[game.pk])
    assert UNUSED in _text(client, users["ann"], afterlife)
    services.action_submit(game=game, user=users["dan"], action="ability", targets=["hal"])
    for user, url in ((users["ann"], afterlife), (users["bob"], afterlife), (moderator, desk)):
        text = _text(client, user, url)
        assert CHOSEN in text and UNUSED not in text, user
    for name in ("cat", "fay", "hal", "dan"):  # the living, and the offstage holder himself
        for url in (reverse("game_detail", args=[game.pk]), afterlife):
            client.force_login(users[name])
            body = client.get(url, follow=True).content.decode()
            assert "last act chosen" not in body, (name, url)
    # Withdrawn, it is unused again.
    services.action_withdraw(game=game, user=users["dan"], what="ability")
    assert UNUSED in _text(client, users["ann"], afterlife)
