"""A player's public profile (issue 16): finished games with their cards and results, win
rates per team, replacements taken, reliability; running games as their public thread
shows them, and nothing more."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.archive.selectors import profile_page, reveal_page
from games.archive.selectors.outcomes import card_team, seat_won, winners_by_game
from tests.factories import UserFactory
from tests.games.afterlife_cast import afterlife_users, play_to_day_3
from tests.games.conftest import CAST, make_game
from tests.games.profile_games import (
    replace,
    village_wins,
    wolf_lynched,
    wolf_running,
)

pytestmark = pytest.mark.django_db


def _text(response):
    assert response.status_code == 200
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def _profile(client, user):
    return _text(client.get(reverse("player_profile", args=[user.player_key])))


@pytest.fixture
def finished(moderator, cast_users):
    return village_wins(moderator, cast_users)


# --- who won: one rule, the reveal's ------------------------------------------------------------
def test_the_winners_are_the_reveals(finished):
    winners = winners_by_game([finished.pk])[finished.pk]
    assert winners == frozenset(reveal_page(finished).winners)
    assert winners == {"ann", "cat", "dan", "eve", "fay", "gus"}
    assert seat_won(winners, "ann") and not seat_won(winners, "bob")


def test_a_cards_team():
    assert card_team("witchhunt", character="judge", type="elder_witch") == "witches"
    assert card_team("witchhunt", character="priest", type="holy_villager") == "village"
    assert card_team("werewolf", role="seer") == "village"
    assert card_team("werewolf", role="warlock") == "werewolves"
    assert card_team("werewolf", role="fool") == "fool"  # a wildcard plays for itself


# --- a finished game --------------------------------------------------------------------------
def test_a_winners_profile(client, finished, cast_users):
    text = _profile(client, cast_users["ann"])
    assert "Priest (Holy Villager)" in text
    assert re.search(
        r"The named cast · Witchhunt 9.0 .* Priest \(Holy Villager\) The Village Won", text
    )
    assert "Witchhunt The Village 1 of 1 won (100%)" in text
    assert "Finished 1 of 1 game; never replaced out." in text
    assert "Replacements taken 0" in text


def test_a_losers_profile(client, finished, cast_users):
    text = _profile(client, cast_users["bob"])
    assert re.search(r"Judge \(Elder Witch\) The Witches Lost", text)
    assert "Witchhunt The Witches 0 of 1 won (0%)" in text
    assert "The Village" not in text


def test_the_replaced_out_player_is_not_credited(client, finished, cast_users):
    page = profile_page(cast_users["eve"])
    [entry] = page.finished
    assert entry.replaced_out and entry.won is None
    assert page.rates == []
    assert (page.finished_count, page.replaced_out_count) == (0, 1)
    text = _profile(client, cast_users["eve"])
    assert "Finished 0 of 1 game; replaced out of 1." in text
    assert re.search(r"Inquisitor \(Basic Villager\) The Village Replaced out", text)
    assert "Won" not in text and "No finished game played to the end yet." in text


def test_the_replacement_takes_the_seats_result(client, finished, cast_users):
    page = profile_page(cast_users["newbie"])
    [entry] = page.finished
    assert entry.replacing and entry.won is True and entry.seat == "eve"
    assert page.replacements_taken == 1
    text = _profile(client, cast_users["newbie"])
    assert "Replacements taken 1" in text
    assert "Witchhunt The Village 1 of 1 won (100%)" in text


def test_win_rates_count_each_team_across_games(client, moderator, finished, cast_users):
    ann, cat = cast_users["ann"], cast_users["cat"]
    wolf_lynched(moderator, [ann, cat, UserFactory(player_name="Zed")])  # Ann the Werewolf loses
    wolf_lynched(moderator, [UserFactory(player_name="Yan"), ann, cat], title="Again")  # wins
    page = profile_page(ann)
    rates = {(r.ruleset, r.team): (r.won, r.played) for r in page.rates}
    assert rates == {
        ("witchhunt", "village"): (1, 1),
        ("werewolf", "village"): (1, 1),
        ("werewolf", "werewolves"): (0, 1),
    }
    assert [r.label for r in page.rates] == ["The Village", "The Village", "The Werewolves"]
    assert "Finished 3 of 3 games; never replaced out." in _profile(client, ann)


def test_an_unknown_player_is_a_404(client, db):
    assert client.get(reverse("player_profile", args=["nobody_here"])).status_code == 404
    assert client.get("/players/" + "a" * 80 + "/").status_code == 404


def test_a_players_key_in_any_case(client, finished, cast_users):
    assert "Priest" in _text(client.get("/players/ANN/"))


# --- running games: only what the public thread shows -------------------------------------------
def test_a_running_game_shows_the_public_status_and_no_card(client, cast_game, cast_users):
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="bob")
    bob = _profile(client, cast_users["bob"])
    assert re.search(r"The named cast Witchhunt 9.0 Night 1 Dead", bob)
    for secret in (r"\bJudge\b", r"\bElder\b", r"\bWitch(es)?\b", r"\bWon\b", r"\bLost\b"):
        assert not re.search(secret, bob), secret
    ann = _profile(client, cast_users["ann"])
    assert re.search(r"The named cast Witchhunt 9.0 Night 1 Alive", ann)
    assert "Priest" not in ann and "Holy" not in ann and "Village" not in ann


def _four_at_the_inn(moderator, cards, reveal_on_death):
    """A running four-seat Werewolf game whose second seat is lynched on Day 1."""
    users = {n.lower(): UserFactory(player_name=n) for n in ("Wil", "Xan", "Yul", "Zoe")}
    cast = [(n, card, "") for n, card in zip(("Wil", "Xan", "Yul", "Zoe"), cards, strict=True)]
    game = make_game(
        moderator,
        users,
        cast=cast,
        ruleset="werewolf",
        options={"reveal_on_death": reveal_on_death},
    )
    for voter in ("wil", "yul", "zoe"):
        services.vote_cast(game=game, user=users[voter], target="xan")
    game.refresh_from_db()
    assert game.status == "running" and game.phase == "night 1"
    return users


def test_a_running_game_shows_a_card_the_game_announced(client, moderator):
    users = _four_at_the_inn(moderator, ("werewolf", "villager", "seer", "villager"), True)
    assert "Night 1 Dead · Villager" in _profile(client, users["xan"])  # announced (WW-3)
    for name in ("wil", "yul", "zoe"):  # the living keep their cards
        other = _profile(client, users[name])
        assert "Night 1 Alive" in other and "Alive ·" not in other and "Seer" not in other


def test_a_running_game_without_reveal_on_death_keeps_the_dead_card(client, moderator):
    users = _four_at_the_inn(moderator, ("werewolf", "seer", "villager", "villager"), False)
    text = _profile(client, users["xan"])
    assert "Night 1 Dead" in text and "Dead ·" not in text and "Seer" not in text


def test_the_offstage_read_as_dead_and_the_replaced_out_as_replaced(client, moderator):
    """afterlife_cast on Day 3: Eve the Magician fake-dead and Dan the Dirty Old Bastard
    offstage read as dead (W-41, W-14a); Gus, replaced by Newcomer, reads as replaced out."""
    users = afterlife_users()
    game, _newcomer = play_to_day_3(moderator, users)  # the replacement service's tenures
    for name in ("eve", "dan", "bob"):
        text = _profile(client, users[name])
        assert re.search(r"Day 3 Dead", text), name
        assert "fake" not in text.lower() and "offstage" not in text.lower()
    gus = _profile(client, users["gus"])
    assert "Day 3 Replaced out" in gus and "Harlot" not in gus and "Lover" not in gus


# --- queries -----------------------------------------------------------------------------------
def _count(client, user):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("player_profile", args=[user.player_key]))
    assert response.status_code == 200
    return len(queries)


@pytest.mark.slow
def test_the_profiles_query_count_does_not_grow_with_the_games(client, moderator, cast_users):
    ann, cat = cast_users["ann"], cast_users["cat"]
    one = UserFactory(player_name="Solo")
    q1, q2 = UserFactory(player_name="Q1"), UserFactory(player_name="Q2")
    wolf_lynched(moderator, [one, q1, q2])
    wolf_running(moderator, [one, q1, q2])
    few = _count(client, one)
    village_wins(moderator, cast_users)
    for i in range(3):
        wolf_lynched(moderator, [UserFactory(player_name=f"W{i}"), ann, cat], title=f"F{i}")
        wolf_running(moderator, [UserFactory(player_name=f"R{i}"), ann, cat], title=f"R{i}")
    many = _count(client, ann)
    assert len(profile_page(ann).running) == 3 and profile_page(ann).finished_total == 4
    assert many == few <= 6, (few, many)
    # A cold cache replays each running game's state once (its seats and its inputs), as
    # the game page would.
    cache.clear()
    assert _count(client, ann) <= many + 2 * 3


def test_a_replacement_in_a_running_game(client, moderator):
    players = [UserFactory(player_name=n) for n in ("Wil", "Xan", "Yul")]
    game = wolf_running(moderator, players)
    newcomer = UserFactory(player_name="Newcomer")
    replace(game, "xan", newcomer)
    page = profile_page(newcomer)
    assert page.replacements_taken == 1 and page.running[0].status == "alive"
    xan = profile_page(players[1])
    assert xan.running[0].replaced_out and xan.running[0].status == ""
    assert "Replaced out" in _profile(client, players[1])


# --- the leak check: a running game's cards, as every viewer ---------------------------------
# Every card name and key dealt in the court game and the afterlife cast (public_setup off:
# each is its holder's secret while the game runs).
SECRET_CARDS = (
    "King", "Judge", "Oracle", "Gravedigger", "Queen", "Cupid", "Harlot", "Wizard",
    "Inquisitor", "Survivalist", "Priest", "Dirty Old Bastard", "Magician",
    "Elder Witch", "Junior Witch", "Village Spy", "Village Lover", "Holy Villager",
    "Basic Villager",
)  # fmt: skip
SECRET_KEYS = ("king", "judge", "oracle", "gravedigger", "queen", "cupid", "harlot", "wizard",
               "inquisitor", "survivalist", "priest", "dirty_old_bastard", "magician",
               "elder_witch", "junior_witch", "village_spy", "village_lover", "holy_villager",
               "basic_villager")  # fmt: skip


def _leaks(html):
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    found = [c for c in SECRET_CARDS if re.search(rf"\b{c}\b", text)]
    return found + [k for k in SECRET_KEYS if re.search(rf"\b{k}\b", html)]


@pytest.mark.slow
@pytest.mark.parametrize("cast", ["court", "afterlife"])
def test_no_profile_shows_a_running_games_card_to_anyone(client, moderator, request, cast):
    if cast == "court":
        game = request.getfixturevalue("court_game")
        users = {s.user.player_key: s.user for s in game.seats.select_related("user")}
    else:
        users = afterlife_users()
        game, newcomer = play_to_day_3(moderator, users)
        users["newcomer"] = newcomer
    outsider = UserFactory(player_name="Outsider")
    for viewer in (None, outsider, moderator, *users.values()):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        for player in users.values():
            response = client.get(reverse("player_profile", args=[player.player_key]))
            assert response.status_code == 200
            html = response.content.decode()
            assert "Playing now" in html
            assert not _leaks(html), (viewer, player, _leaks(html))
        archive = client.get(reverse("archive")).content.decode()
        listed = archive[archive.index('id="archive-results"') :]  # the search lists every card
        assert game.title not in listed and not _leaks(listed)


def test_open_sign_ups_are_listed(client, moderator, cast_users):
    make_game(moderator, cast_users, cast=CAST[:4], start=False)
    text = _profile(client, cast_users["ann"])
    assert "Signed up The named cast · Witchhunt 9.0" in text


def test_the_profiles_finished_games_are_the_sign_up_bars(finished, moderator, cast_users):
    """The number a profile shows is the one a game's "finished games" bar counts."""
    from games.community.selectors.signups import finished_games_count

    wolf_lynched(moderator, [cast_users["ann"], cast_users["eve"], UserFactory()])
    for user in cast_users.values():
        assert profile_page(user).finished_count == finished_games_count(user), user
