"""A member's data as a JSON download (issue 27, games/leaving): their profile, posts,
votes, actions, notes and games; cards only once a game is finished; and nothing in it
moves with another seat's hidden input (the twins of tests/games/noninterference.py)."""

import json
from datetime import date

import pytest
from django.urls import reverse

from games import services
from games.community.services import absences
from games.models import Game
from games.reading.services.notes import note_save
from tests.games.conftest import make_game
from tests.games.noninterference import differences, twins
from tests.games.test_noninterference import CAST, _refresh, _users

pytestmark = pytest.mark.django_db


def _export(client, user):
    client.force_login(user)
    response = client.get(reverse("member_export"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def test_the_export_holds_the_members_own_data(client, game, cast_users):
    ann, bob = cast_users["ann"], cast_users["bob"]
    services.post_create(game=game, user=ann, body="Ann's own words.")
    services.post_create(game=game, user=bob, body="Bob's words.")
    services.vote_cast(game=game, user=ann, target="bob")
    note_save(game=game, user=ann, seat="bob", read="scum", text="Bob lies.", shared=False)
    absences.absence_declare(user=ann, first_day=date(2026, 4, 1), last_day=date(2026, 4, 2))
    data = _export(client, ann)
    assert data["profile"]["email"] == "ann@example.com"
    assert data["profile"]["preferences"]["email_phase_changes"] is True
    assert [p["text"] for p in data["posts"]] == ["Ann's own words."]
    assert [v["input"] for v in data["votes"]] == [
        {"actor": "ann", "action": "vote", "target": "bob"}
    ]
    assert [n["text"] for n in data["notes"]] == ["Bob lies."]
    assert len(data["absences"]) == 1
    # A running game: the seat, never the cards (the role page has them while it runs).
    [row] = data["games"]
    assert row["seat"] == "ann" and row["cards"] is None
    assert "priest" not in json.dumps(data)


def test_a_finished_games_cards_are_in_the_export(client, game, cast_users):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner="village")
    [row] = _export(client, cast_users["ann"])["games"]
    assert row["cards"] == {"character": "priest", "type": "holy_villager"}


def test_the_export_is_not_reached_signed_out(client):
    response = client.get(reverse("member_export"))
    assert response.status_code == 302


@pytest.mark.slow
def test_a_hidden_input_changes_nothing_in_a_players_export():
    """Jon's secret day power (hidden from Dan) comes before Dan's vote and post: Dan's
    export is the same bytes whether it happened or not."""

    def story(hidden):
        u = _users(CAST)
        game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})
        if hidden:
            services.action_submit(game=game, user=u["jon"], action="ability",
                                   choice="elder_witch")  # fmt: skip
        services.vote_cast(game=_refresh(game), user=u["dan"], target="bob")
        services.post_create(game=_refresh(game), user=u["dan"], body="Dan votes Bob.")
        yield "day 1", _refresh(game), u

    first, second = twins(story, ("dan",), extra=[reverse("member_export")])
    export = reverse("member_export")
    assert '"Dan votes Bob."' in first[("day 1", "dan")][export][2]
    assert not differences(first, second), "\n".join(differences(first, second)[:8])
