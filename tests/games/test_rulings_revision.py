"""W-76: every game records the revision of the rulings it started under and is played to
its end under it, whatever revision the site runs later. A game dealt now is revision 3;
a game stored before revision 3 is 2b (the migration), replays under 2b (mapping), so the
replay check finds nothing to report, and its record names its revision."""

import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games import services
from games.archive.selectors import record_json
from games.engine import CURRENT_REVISION, records
from games.mapping import engine_state, game_record, replay_mismatch
from games.models import Game
from games.selectors.replays import stored_games_that_differ
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

pytestmark = pytest.mark.django_db

# The shared example r3_w8a_summoner_names_lapse_one_by_one, through the services: three
# removals and Cal's lynch make Night 1 the Halftime night; the Summoner names Wes, Amy
# and Ben, and Ben is removed after midnight.
SUMMONED = [
    ("Sam", "summoner", "basic_villager"),
    ("Wes", "judge", "elder_witch"),
    ("Amy", "oracle", "basic_villager"),
    ("Ben", "innkeeper", "basic_villager"),
    ("Cal", "gravedigger", "basic_villager"),
    ("Rob", "inquisitor", "basic_villager"),
    ("Ray", "investigator", "basic_villager"),
    ("Roy", "undertaker", "basic_villager"),
]


def _summoned_game(moderator, revision):
    """The game dealt, then (as if started before the site's upgrade) set to `revision`,
    and played through the night."""
    users = users_for(SUMMONED)
    game = make_game(moderator, users, cast=SUMMONED, title="The Summoner's night")
    assert game.revision == CURRENT_REVISION == "3"
    if revision != game.revision:
        Game.objects.filter(pk=game.pk).update(revision=revision)
    game = Game.objects.get(pk=game.pk)
    for name in ("rob", "ray", "roy"):
        services.player_remove(game=game, seat_name=name, by=moderator)
    for voter in ("sam", "amy", "ben"):
        services.vote_cast(game=game, user=users[voter], target="cal")
    services.action_submit(
        game=game, user=users["sam"], action="ability", targets=["wes", "amy", "ben"]
    )
    services.midnight_pass(game=game)
    services.player_remove(game=game, seat_name="ben", by=moderator)
    services.phase_advance(game=game, by=moderator)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(
    "revision, status, living",
    [
        # W-8a, revision 3: Ben's name lapses alone; Wes and Amy die, the Village wins
        ("3", Game.Status.FINISHED, ["sam"]),
        # revision 2b: the three names lapse whole; nobody is attacked
        ("2b", Game.Status.RUNNING, ["amy", "sam", "wes"]),
    ],
)
def test_a_game_is_played_under_its_own_revision(moderator, revision, status, living):
    game = _summoned_game(moderator, revision)
    assert game.status == status
    state = engine_state(game)
    assert state.revision == revision
    assert sorted(s.name for s in state.seats if s.living) == living
    # The record names the revision and replays to what the game announced.
    record = game_record(game)
    assert record["revision"] == revision
    result, _ = records.play(record_json(game))
    assert result["final"]["alive"] == living
    assert replay_mismatch(game) is None


def test_a_revision_2b_game_replays_as_it_announced_after_the_site_moved_on(moderator):
    """The point of W-76: the site upgraded while a 2b game ran; its replay under the
    game's own revision reproduces what it announced, so the replay check reports nothing.
    Replayed under the site's revision instead, it would have differed."""
    game = _summoned_game(moderator, "2b")
    assert replay_mismatch(game) is None
    assert stored_games_that_differ() == []
    call_command("replay_check")  # exits 0
    Game.objects.filter(pk=game.pk).update(revision="3")  # as if the rules moved it on
    assert replay_mismatch(Game.objects.get(pk=game.pk)) is not None


def test_a_game_opened_under_an_earlier_revision_starts_under_the_current_one(
    moderator, cast_users
):
    """W-76 names the revision a game *started* under: an open game is dealt under this
    release's, whatever its row said while sign-ups were open."""
    game = make_game(moderator, cast_users, start=False)
    Game.objects.filter(pk=game.pk).update(revision="2b")
    game = services.game_start(game=Game.objects.get(pk=game.pk), by=moderator)
    assert Game.objects.get(pk=game.pk).revision == CURRENT_REVISION
    assert engine_state(game).revision == CURRENT_REVISION


def test_the_pages_and_the_download_name_the_revision(client, moderator):
    game = _summoned_game(moderator, "3")  # finished: the reveal and the record are open
    record = json.loads(client.get(reverse("game_record", args=[game.pk])).content)
    assert record["revision"] == "3"
    revisions = reverse("rules_ruleset", args=["witchhunt"]) + "#rulings-revisions"
    rules = f'<a href="{revisions}">Rulings revision 3</a>'
    for page in ("game_detail", "game_reveal"):
        assert rules in client.get(reverse(page, args=[game.pk])).content.decode(), page
    client.force_login(moderator)
    assert rules in client.get(reverse("game_desk", args=[game.pk])).content.decode()


def test_a_werewolf_game_links_its_revision_to_its_own_rulings(client, moderator):
    """WW-19 says what a revision means to a Werewolf game: its link goes there, not to
    Witchhunt's section of W-76."""
    cast = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "villager", "")]
    game = make_game(moderator, users_for(cast), cast=cast, ruleset="werewolf")
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    revisions = reverse("rules_ruleset", args=["werewolf"]) + "#WW-19"
    assert f'<a href="{revisions}">Rulings revision 3</a>' in page
    rulings = client.get(reverse("rules_ruleset", args=["werewolf"])).content.decode()
    assert 'id="WW-19"' in rulings


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_sets_every_stored_game_to_2b_and_new_ones_to_3():
    before = [("games", "0013_seed_128_bits")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        host = UserFactory()
        OldGame = executor.loader.project_state(before).apps.get_model("games", "Game")
        fields = {"ruleset": "witchhunt", "seats_count": 8, "deal": {}, "host_id": host.pk}
        stored = [
            OldGame.objects.create(title=status, seed=7, status=status, **fields).pk
            for status in ("open", "running", "finished")
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    revisions = Game.objects.filter(pk__in=stored).values_list("revision", flat=True)
    assert list(revisions) == ["2b"] * 3
    new = Game.objects.create(
        title="new", seed=8, ruleset="witchhunt", seats_count=8, deal={}, host=host
    )
    assert Game.objects.get(pk=new.pk).revision == "3" == CURRENT_REVISION
