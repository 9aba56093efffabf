"""What a host reads of an estimate (issue 32): the band from careless to sharp play beside
the estimate for typical play, the site's own finished games of the setup beside both, the
new-game form's words for a picked suggested setup, and no trace of a running game.

The finished games are real site games of the suggested eight-seat Witchhunt setup, made
with the services a moderator uses: the Witches win a declared stalemate (W-72, W-69a), the
Village wins once both Witches are removed (W-72: the removed count as dead). Runs on
SQLite, and on PostgreSQL with DATABASE_URL set."""

import re

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games import services
from games.lab.selectors import lab_observed
from games.lab.services import lab_address, lab_start, lab_store
from games.lab.simulation.estimate import Estimate, TeamRate, simulate
from games.lab.simulation.setups import Setup, find_suggested
from games.models import Assignment, Game
from tests.factories import UserFactory
from tests.games.noninterference import HEADERS, T0, normal

WITCHHUNT_8 = find_suggested("witchhunt-8")
WITCHES = ("elder_witch", "junior_witch")


def _estimate(setup, village_share, games=100):
    """A made-up estimate of `setup` (no games played): the Village's share as given."""
    wins = round(village_share * games)
    teams = [
        TeamRate("village", wins, wins / games, max(0, wins / games - 0.1), wins / games + 0.1),
        TeamRate("witches", games - wins, 1 - wins / games, 0.0, 1.0),
    ]
    return Estimate(setup.key(), games, teams, 4.0, [0, 0, 0, 0, games], seed=1)


def _played_game(moderator, setup=WITCHHUNT_8, *, deal=None, title="Calibration"):
    """A started site game of `setup` (its deal as given, if given)."""
    game = services.game_create(
        host=moderator,
        ruleset=setup.ruleset,
        title=title,
        seats_count=setup.seats,
        deal=deal or setup.deal,
        options=setup.options,
        seed=Game.objects.count() + 11,
    )
    for _ in range(setup.seats):
        services.game_join(game=game, user=UserFactory())
    return services.game_start(game=game, by=moderator)


def _finished(moderator, *, village: bool, **kwargs):
    """A finished site game of the setup that the Village (or else the Witches) won."""
    game = _played_game(moderator, **kwargs)
    if village:
        witches = Assignment.objects.filter(seat__game=game, type__in=WITCHES)
        for seat_name in witches.values_list("seat__name", flat=True):
            services.player_remove(game=game, seat_name=seat_name, by=moderator)
    else:
        services.stalemate_declare(game=game, by=moderator)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner == ("village" if village else "witches")
    return game


def _host():
    """A member who may host games (the games.add_game permission), moderating none here."""
    from django.contrib.auth.models import Permission

    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_game"))
    return user


def _page(client, key=None):
    return client.get(reverse("lab_result", kwargs={"key": key or WITCHHUNT_8.key()}))


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


# --- the band -------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_page_shows_the_band_beside_the_typical_estimate(client):
    typical = _estimate(WITCHHUNT_8, 0.47)
    # Sharp play may favour either side: each end is named, not sorted.
    careless, sharp = _estimate(WITCHHUNT_8, 0.55), _estimate(WITCHHUNT_8, 0.38)
    assert lab_store(setup=WITCHHUNT_8, estimate=typical, band=(careless, sharp))
    text = _text(_page(client))
    assert "The bots claim, share results and lie as typical forum players do." in text
    assert (
        "When both sides play carelessly the Village wins 55%; when both play sharply, 38%."
    ) in text
    assert re.search(r"Village 47 47% 37% to 57%", text)


@pytest.mark.django_db
def test_without_a_band_the_page_says_nothing_of_one(client):
    assert lab_store(setup=WITCHHUNT_8, estimate=_estimate(WITCHHUNT_8, 0.47))
    text = _text(_page(client))
    assert "Village 47" in text
    assert "Careless to sharp" not in text and "between" not in text


# --- the site's own games -------------------------------------------------------------------
@pytest.mark.django_db
def test_finished_games_of_the_setup_are_shown_with_an_interval(client, moderator):
    assert lab_store(setup=WITCHHUNT_8, estimate=_estimate(WITCHHUNT_8, 0.47))
    assert "No game of this setup has finished on this site yet." in _text(_page(client))
    for village in (True, False, False):
        _finished(moderator, village=village)
    # Not this setup: another size, another deal. The same pool in another order is.
    other = find_suggested("witchhunt-12")
    _finished(moderator, village=True, setup=other)
    shuffled = {**WITCHHUNT_8.deal, "characters": sorted(WITCHHUNT_8.deal["characters"])[::-1]}
    _finished(moderator, village=True, deal=shuffled)
    fewer = {**WITCHHUNT_8.deal, "characters": WITCHHUNT_8.deal["characters"][:-1]}
    _finished(moderator, village=True, deal=fewer)
    text = _text(_page(client))
    assert (
        "4 finished games on this site: the Village won 2 (50%, 95% interval 15% to 85%)."
    ) in text
    seen = lab_observed(WITCHHUNT_8)
    assert (seen.games, seen.wins) == (4, 2)


@pytest.mark.django_db
def test_a_members_own_setup_is_matched_against_their_own_games_alone(client, moderator):
    """A pool's cards not dealt stay the host's after the end: a member's own setup's page
    never says whether another host's game drew from that pool."""
    member = UserFactory()
    pool = {**WITCHHUNT_8.deal, "characters": sorted(WITCHHUNT_8.deal["characters"])[:-1]}
    own = Setup("witchhunt", 8, pool, WITCHHUNT_8.options)
    lab_start(setup=own, user=member)
    address = lab_address(setup=own, user=member)
    client.force_login(member)
    _finished(moderator, village=True, deal=pool)  # another host's game of that pool
    text = _text(_page(client, address))
    assert "No game you hosted with this setup has finished yet." in text
    assert "on this site:" not in text
    _finished(member, village=False, deal=pool)
    text = _text(_page(client, address))
    assert (
        "1 finished game you hosted with this setup: the Village won 0 (0%, 95% interval "
        "0% to 79%)."
    ) in text


@pytest.mark.django_db
def test_the_site_games_of_a_setup_are_read_in_one_query(moderator, django_assert_num_queries):
    _finished(moderator, village=False)
    with django_assert_num_queries(1):
        seen = lab_observed(WITCHHUNT_8)
    assert (seen.games, seen.wins) == (1, 0)


def _served(viewers) -> dict:
    """What each viewer is served by the lab's pages and the new-game form's panel: status,
    the headers a browser or a cache reads, and the body (its CSRF mask blanked)."""
    out = {}
    for name, client in viewers.items():
        for url in (
            reverse("lab"),
            reverse("lab_result", kwargs={"key": WITCHHUNT_8.key()}),
            reverse("game_new") + "?suggested=witchhunt-8",
        ):
            response = client.get(url)
            headers = {h: response.get(h) for h in HEADERS}
            out[name, url] = (response.status_code, headers, normal(response.content))
    return out


@pytest.mark.django_db
@time_machine.travel(T0, tick=False)  # the same moment in both: Expires, Date
def test_a_running_game_of_the_setup_changes_nothing_anyone_is_served(moderator):
    """Non-interference: twins that differ by one more running game (and one open for
    sign-ups) of the same setup serve every viewer the same bytes, a visitor, a member and
    another host (the games' moderator is told of their own games); one more finished
    game does not (the test can see a difference)."""
    careless, sharp = _estimate(WITCHHUNT_8, 0.38), _estimate(WITCHHUNT_8, 0.55)
    lab_store(setup=WITCHHUNT_8, estimate=_estimate(WITCHHUNT_8, 0.47), band=(careless, sharp))
    _finished(moderator, village=True)
    viewers = {"visitor": Client(), "member": Client(), "host": Client()}
    viewers["member"].force_login(UserFactory())
    viewers["host"].force_login(_host())
    before = _served(viewers)

    running = _played_game(moderator, title="Still going")
    assert running.status == Game.Status.RUNNING
    services.game_create(
        host=moderator,
        ruleset="witchhunt",
        title="Open",
        seats_count=8,
        deal=WITCHHUNT_8.deal,
        options=WITCHHUNT_8.options,
    )
    after = _served(viewers)
    assert after == before

    _finished(moderator, village=False)
    changed = _served(viewers)
    assert changed != before
    assert all(changed[k][2] != before[k][2] for k in before if "/lab/" in k[1] and k[1] != "/lab/")


# --- the new-game form ------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_new_game_form_says_what_a_picked_setups_estimate_means(client, host, moderator):
    client.force_login(host)
    url = reverse("game_new")
    text = _text(client.get(url, {"suggested": "witchhunt-8"}))
    assert "The balance of Witchhunt 8" in text
    assert "The lab has not estimated this setup yet." in text
    assert "No game of this setup has finished on this site yet." in text

    careless, sharp = _estimate(WITCHHUNT_8, 0.38), _estimate(WITCHHUNT_8, 0.55)
    lab_store(setup=WITCHHUNT_8, estimate=_estimate(WITCHHUNT_8, 0.47), band=(careless, sharp))
    _finished(moderator, village=True)
    text = _text(client.get(url, {"suggested": "witchhunt-8"}))
    assert (
        "The lab’s estimate: in games played by bots that claim, share results and lie as "
        "typical forum players do, the Village won 47% (37% to 57%). When both sides play "
        "carelessly the Village wins 38%; when both play sharply, 55%. It is a guide to "
        "balance, not a promise: real players differ."
    ) in text
    assert (
        "1 finished game on this site: the Village won 1 (100%, 95% interval 21% to 100%)." in text
    )
    # The list's label of it has the band too.
    assert "Witchhunt 8 : Village 47% ± 10 (careless play 38%, sharp play 55%)" in text
    # Without a suggested setup picked, the form says none of it.
    assert "The balance of" not in _text(client.get(url))
    # The list's own words say what its shares are.
    assert "bots that play as typical forum players do" in _text(client.get(url))


@pytest.mark.django_db
def test_balance_store_keeps_the_band_for_the_page(client):
    """`balance --store` keeps the band it computed: the page shows it."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "balance", "witchhunt-8", "--games", "20", "--sizes", "none", "--workers", "1",
        "--store", stdout=out,
    )  # fmt: skip
    assert "Careless to sharp play: Village " in out.getvalue()
    text = _text(_page(client))
    careless = simulate(WITCHHUNT_8, games=20, seed=1, skill="careless")
    sharp = simulate(WITCHHUNT_8, games=20, seed=1, skill="sharp")
    low, high = (
        round(100 * next(t.share for t in e.teams if t.team == "village"))
        for e in (careless, sharp)
    )
    assert f"carelessly the Village wins {low}%; when both play sharply, {high}%." in text


def test_a_setup_from_a_games_fields_is_the_suggested_one():
    """How a Game's fields map to a setup (what lab_observed matches on)."""
    game = Game(
        ruleset="witchhunt", seats_count=8, deal=WITCHHUNT_8.deal, options=WITCHHUNT_8.options
    )
    setup = Setup.from_game_fields(game.ruleset, game.seats_count, game.deal, game.options)
    assert setup.key() == WITCHHUNT_8.key()
