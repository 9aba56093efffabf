"""Issue 25, "nothing hidden leaks": the deal's randomness. The deal is a pure function of
the game's seed and the public tie-break orders (SHA-256 of "<seed>:<phase>:<name>",
W-5a, W-13) are oracles on it, so a new game draws 128 bits from `secrets`; the seed is
kept exactly (models.SeedField: its digits, not a 63-bit integer) and replays, on SQLite
and PostgreSQL alike, through the engine, the record, the fair deal, the replay check,
the admin and the download. Existing games keep their seeds (the migration)."""

import secrets

import pytest
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.urls import reverse

from games import services
from games.archive.selectors import record_json
from games.engine import records
from games.fair_deal.selectors import fair_deal
from games.mapping import engine_state, game_record, replay_mismatch
from games.models import SEED_BITS, Game
from games.selectors.replays import stored_games_that_differ
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game

pytestmark = pytest.mark.django_db

# Far beyond 64 bits (and beyond the 128 the site draws): a record's seed may be any size.
HUGE = 2**200 + 12_345_678_901_234_567_890


def _explicit_deal():
    return {
        "mode": "explicit",
        "cards": [{"character": c, "type": t} for _, c, t in CAST],
        "shuffle": True,
    }


def test_a_new_games_seed_is_128_bits_from_secrets(moderator, monkeypatch):
    drawn = []
    real = secrets.randbits

    def randbits(k):
        drawn.append(k)
        return real(k)

    monkeypatch.setattr("games.services.games.secrets.randbits", randbits)
    games = [
        services.game_create(
            host=moderator,
            ruleset="witchhunt",
            title=f"Game {i}",
            seats_count=len(CAST),
            deal=_explicit_deal(),
        )
        for i in range(3)
    ]
    assert drawn == [SEED_BITS] * 3 and SEED_BITS >= 128
    seeds = [Game.objects.get(pk=g.pk).seed for g in games]
    assert seeds == [g.seed for g in games]  # stored exactly, read back as ints
    assert all(type(s) is int for s in seeds)
    assert len(set(seeds)) == 3
    # Three draws of 128 bits all below 2**64: a chance of 2**-192.
    assert max(seeds) >= 2**64


def test_a_huge_seed_is_stored_dealt_and_replayed_exactly(client, moderator, cast_users):
    game = make_game(moderator, cast_users, seed=HUGE, shuffle=True)
    row = Game.objects.get(pk=game.pk)
    assert row.seed == HUGE and type(row.seed) is int
    assert Game.objects.filter(seed=HUGE).get() == row  # a lookup by the seed finds it
    assert Game.objects.values_list("seed", flat=True).get(pk=game.pk) == HUGE
    # A day and a night, through the services.
    services.phase_advance(game=row, by=moderator)
    services.phase_advance(game=Game.objects.get(pk=game.pk), by=moderator)
    row = Game.objects.get(pk=game.pk)
    assert row.phase == "day 2"
    caches["default"].clear()  # the engine state is rebuilt from the rows
    assert engine_state(row).seed == HUGE
    assert replay_mismatch(row) is None
    assert stored_games_that_differ() == []
    # The record names the seed in full and replays to the same game.
    record = game_record(row)
    assert record["seed"] == HUGE
    text = record_json(row)
    assert f'"seed": {HUGE},' in text
    result, _warnings = records.play(text)
    assert result["final"]["phase"] == "day 2"
    assert result["refused"] == []
    # The fair deal: the sealed text carries the seed's digits, and checks at the reveal.
    services.stalemate_declare(game=row, by=moderator)
    deal = fair_deal(Game.objects.get(pk=game.pk))
    assert deal.matches and f'"seed":{HUGE}' in deal.text
    # The admin shows it whole.
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert str(HUGE) in page


def test_a_seed_must_be_a_non_negative_whole_number(moderator):
    for bad in (-1, 10**80):
        with pytest.raises(ValidationError):
            services.game_create(
                host=moderator,
                ruleset="witchhunt",
                title="Bad seed",
                seats_count=len(CAST),
                deal=_explicit_deal(),
                seed=bad,
            )
    assert not Game.objects.exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_seeds_of_existing_games():
    before = [("games", "0011_post_hidden")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        host = UserFactory()
        OldGame = executor.loader.project_state(before).apps.get_model("games", "Game")
        fields = {"ruleset": "witchhunt", "seats_count": 8, "deal": {}, "host_id": host.pk}
        kept = {
            OldGame.objects.create(title=str(seed), seed=seed, **fields).pk: seed
            for seed in (0, 7, 2**63 - 1, 8_817_171_717_171_717_171)
        }
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    assert set(latest) <= set(MigrationRecorder(connection).applied_migrations())
    assert dict(Game.objects.filter(pk__in=kept).values_list("pk", "seed")) == kept
    # And a 128-bit seed fits beside them now.
    game = Game.objects.get(pk=min(kept))
    game.seed = 2**128 - 1
    game.save(update_fields=["seed"])
    assert Game.objects.get(pk=game.pk).seed == 2**128 - 1
