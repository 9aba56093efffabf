"""Issue 31: the non-interference twins of an anonymous game. Two games alike in every seat
(its alias, its cards, its play) whose first two seats are taken by Annqx and Bobqx in one
and by Bobqx and Annqx in the other: a player of the game, a member outside it and a
visitor are served the same bytes, pages and emails, at sign-up, by day, after a
replacement and by night (run on SQLite, and on PostgreSQL with DATABASE_URL set)."""

import pytest

from tests.factories import UserFactory
from tests.games.noninterference import differences, twins

from .story import NAMES, anon_users, story

pytestmark = pytest.mark.django_db
VIEWERS = ("anonymous", "outsider", "catqx")


def _twin(hidden):
    users = anon_users()
    users["outsider"] = UserFactory(player_name="Outsider")
    moderator = UserFactory(player_name="Modqx")
    join = [NAMES[1], NAMES[0], *NAMES[2:]] if hidden else NAMES
    for checkpoint, game in story(moderator, users, join):
        if checkpoint == "end":  # the reveal shows who sat where
            return
        yield checkpoint, game, users


@pytest.mark.slow
def test_who_sits_behind_an_alias_changes_nothing_a_player_is_served():
    first, second = twins(_twin, VIEWERS)
    assert first, "nothing was read"
    assert not differences(first, second), "\n".join(differences(first, second)[:8])
