"""Spectators (games/spectators): the host's choices, who may follow, the seats they can
never take, their page and its delay, their thread, the desk's list and its flag."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games import services
from games.community.services import replacements
from games.engine import GameRuleError, Phase
from games.models import GameInput, SignInAddress, Spectator, SpectatorPost, SpectatorSettings
from games.spectators import services as spectating
from games.spectators.delay import phases_before, spectator_cut
from games.spectators.selectors import desk_spectators
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.afterlife_cast import AFTERLIFE_CAST, lynch
from tests.games.conftest import make_game, users_for
from tests.games.noninterference import normal

pytestmark = pytest.mark.django_db


def _refresh(game):
    game.refresh_from_db()
    return game


def _choose(game, **choices):
    """The host's choices changed as a save does (the pages' cached copy forgotten)."""
    row = SpectatorSettings.objects.get(game=game)
    for name, value in choices.items():
        setattr(row, name, value)
    row.save()


@pytest.fixture
def world():
    users = users_for(AFTERLIFE_CAST)
    users["mod"] = UserFactory(player_name="Mod")
    users["sue"] = UserFactory(player_name="Sue")  # the spectator
    users["out"] = UserFactory(player_name="Outsider")
    game = make_game(users["mod"], users, cast=AFTERLIFE_CAST, start=False)
    spectating.settings_store(game, allowed=True, delay="none", dead_see=False)
    game = services.game_start(game=game, by=users["mod"])
    return game, users


def _login(client, user):
    client.force_login(user)
    return client


# --- the host's choices ----------------------------------------------------------------------
def test_the_settings_change_on_the_desk_before_the_start_and_are_refused_after(client):
    users = users_for(AFTERLIFE_CAST)
    mod = UserFactory(player_name="Mod")
    game = make_game(mod, users, cast=AFTERLIFE_CAST, start=False)
    url = reverse("spectators_settings", args=[game.pk])
    _login(client, mod).post(url, {"spectators-allowed": "on", "spectators-delay": "phase"})
    row = SpectatorSettings.objects.get(game=game)
    assert (row.allowed, row.delay, row.dead_see) == (True, "phase", False)
    services.game_start(game=game, by=mod)
    response = client.post(url, {"spectators-delay": "none"}, follow=True)
    assert "fixed once the game has started" in response.content.decode()
    row.refresh_from_db()
    assert (row.allowed, row.delay) == (True, "phase")  # refused: nothing changed


def test_a_player_cannot_change_the_settings(client, world):
    game, users = world
    response = _login(client, users["ann"]).post(
        reverse("spectators_settings", args=[game.pk]), {"spectators-delay": "phase"}
    )
    assert response.status_code == 404
    assert SpectatorSettings.objects.get(game=game).delay == "none"


def test_dead_see_is_kept_for_werewolf_alone(world):
    game, _ = world
    row = spectating.settings_store(game, allowed=True, delay="none", dead_see=True)
    assert row.dead_see is False  # a Witchhunt afterlife sees the whole game already


def test_a_bad_delay_on_the_new_game_form_creates_no_game(client, host):
    from games.models import Game
    from tests.games.test_views import NEW_GAME

    cards = "Priest, Holy Villager\ndirty old bastard basic_villager\ngambler basic_villager\n"
    cards += "judge elder_witch\ncupid village_lover\nharlot village_lover\n"
    _login(client, host)
    response = client.post(
        reverse("game_new"),
        {**NEW_GAME, "seats_count": 6, "cards": cards, "shuffle": "", "spectators-delay": "x"},
    )
    assert response.status_code == 200
    text = response.content.decode().replace("&#x27;", "'")
    assert "spectators' choices could not be read" in text
    assert not Game.objects.exists()


# --- following ---------------------------------------------------------------------------------
def test_an_outsider_follows_and_stops(client, world):
    game, users = world
    _login(client, users["sue"]).post(reverse("spectate_start", args=[game.pk]))
    assert Spectator.objects.filter(game=game, user=users["sue"], left_at=None).exists()
    assert client.get(reverse("spectator_page", args=[game.pk])).status_code == 200
    client.post(reverse("spectate_stop", args=[game.pk]))
    assert client.get(reverse("spectator_page", args=[game.pk])).status_code == 404
    # Seen the cards: the row stays, closed, and still bars a seat.
    assert Spectator.objects.get(game=game, user=users["sue"]).left_at is not None


@pytest.mark.parametrize(
    ("who", "words"),
    [("ann", "you have played in this game"), ("mod", "you moderate this game")],
)
def test_a_player_and_the_moderator_cannot_follow(world, who, words):
    game, users = world
    with pytest.raises(GameRuleError, match=words):
        spectating.spectate_start(game=game, user=users[who])
    assert not Spectator.objects.filter(game=game).exists()


def test_a_replaced_player_cannot_follow(world):
    game, users = world
    services.player_replace(game=game, seat_name="gus", new_user=users["out"], by=users["mod"])
    with pytest.raises(GameRuleError, match="you have played in this game"):
        spectating.spectate_start(game=_refresh(game), user=users["gus"])


def test_nobody_follows_a_game_that_takes_no_spectators(world):
    game, users = world
    _choose(game, allowed=False)
    with pytest.raises(GameRuleError, match="does not take spectators"):
        spectating.spectate_start(game=game, user=users["sue"])


# --- no seat for a spectator --------------------------------------------------------------------
def test_a_spectator_of_an_open_game_cannot_join_it_until_they_stop():
    users = users_for(AFTERLIFE_CAST)
    mod, sue = UserFactory(player_name="Mod"), UserFactory(player_name="Sue")
    game = make_game(mod, users, cast=AFTERLIFE_CAST, start=False)
    services.game_leave(game=game, user=users["jon"])  # a seat free
    spectating.settings_store(game, allowed=True, delay="none", dead_see=False)
    spectating.spectate_start(game=game, user=sue)
    with pytest.raises(GameRuleError, match="spectator"):
        services.game_join(game=game, user=sue)
    spectating.spectate_stop(game=game, user=sue)  # before the deal: nothing was seen
    assert services.game_join(game=game, user=sue).user == sue


def test_a_spectator_can_never_volunteer_be_offered_or_take_a_seat(world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    spectating.spectate_stop(game=game, user=users["sue"])  # leaving changes nothing
    with pytest.raises(GameRuleError, match="spectator"):
        replacements.volunteer_join(user=users["sue"], game=game, hours_per_week=5)
    with pytest.raises(GameRuleError, match="spectator"):
        services.player_replace(game=game, seat_name="gus", new_user=users["sue"], by=users["mod"])
    # On the list for any game: a seat of this one is never offered to them.
    replacements.volunteer_join(user=users["sue"], hours_per_week=5)
    replacements.volunteer_join(user=users["out"], hours_per_week=5)
    replacements.replacement_mark(game=game, seat_name="gus", by=users["mod"])
    offered = set(
        get_user_model()
        .objects.filter(replacement_offers__seat__game=game)
        .values_list("player_name", flat=True)
    )
    assert offered == {"Outsider"}


# --- the page and its delay --------------------------------------------------------------------
def test_the_spectators_page_is_a_404_to_players_and_outsiders(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    url = reverse("spectator_page", args=[game.pk])
    for who in ("ann", "bob", "out"):
        assert _login(client, users[who]).get(url).status_code == 404, who
    body = _login(client, users["sue"]).get(url).content.decode()
    assert "Inquisitor" in body and "Wizard" in body  # every card


def test_phases_before_names_every_earlier_phase():
    assert phases_before(Phase("night", 0)) == {""}
    assert phases_before(Phase("day", 2)) == {"", "day 1", "night 1"}


def test_the_one_phase_delay_shows_the_game_as_the_previous_phase_began(world):
    game, users = world
    _choose(game, delay="phase")
    # Day 1: the cards as dealt, no input at all.
    cut = spectator_cut(game, "phase")
    assert (str(cut.as_of), cut.phases) == ("night 0", {""})
    assert cut.state.seat("bob").living
    lynch(_refresh(game), users, "bob")
    # Night 1: Day 1's votes are still hidden (the cut is Day 1's start).
    cut = spectator_cut(_refresh(game), "phase")
    assert str(cut.as_of) == "day 1" and cut.state.seat("bob").living
    services.action_submit(game=_refresh(game), user=users["hal"], action="coven", target="ann")
    services.phase_advance(game=_refresh(game), by=users["mod"])
    # Day 2: as Night 1 began: Bob lynched, Ann alive, the Coven's choice not shown.
    game = _refresh(game)
    cut = spectator_cut(game, "phase")
    assert str(cut.as_of) == "night 1"
    assert not cut.state.seat("bob").living and cut.state.seat("ann").living
    day1_inputs = GameInput.objects.filter(game=game, phase="day 1").count()
    assert cut.events == len(spectator_cut_state_events(game, day1_inputs))
    coven = [i for i in GameInput.objects.filter(game=game, phase="night 1")]
    assert coven and all(not cut.shows_phase(i.phase) for i in coven)


def spectator_cut_state_events(game, inputs):
    from games.mapping import engine_state_after

    return engine_state_after(game, inputs).events


def test_with_no_delay_the_page_shows_the_night_action_as_it_is_made(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    lynch(_refresh(game), users, "bob")
    url = reverse("spectator_page", args=[game.pk])
    with time_machine.travel(timezone.now(), tick=False):  # the deadline's words stand still
        before = normal(_login(client, users["sue"]).get(url).content)
        services.action_submit(game=_refresh(game), user=users["hal"], action="coven", target="ann")
        after = normal(client.get(url).content)
        assert before != after
        # One phase behind: the same kind of action is not shown.
        _choose(game, delay="phase")
        delayed = normal(client.get(url).content)
        assert "One phase behind" in delayed
        services.action_submit(
            game=_refresh(game), user=users["ivy"], action="ability", targets=["jon"]
        )
        assert normal(client.get(url).content) == delayed


# --- the thread ----------------------------------------------------------------------------------
def test_spectators_write_their_thread_and_no_player_reads_it(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    url = reverse("spectators_thread", args=[game.pk])
    _login(client, users["sue"]).post(url, {"body": "Hal is the Wizard-9931"})
    assert SpectatorPost.objects.get(game=game).body == "Hal is the Wizard-9931"
    assert "Wizard-9931" in client.get(url).content.decode()
    lynch(_refresh(game), users, "bob")  # Bob dead (in the afterlife)
    services.player_replace(
        game=_refresh(game), seat_name="gus", new_user=users["out"], by=users["mod"]
    )
    for who in ("ann", "bob", "gus", "out"):  # living, dead, replaced, the newcomer
        _login(client, users[who])
        assert client.get(url).status_code == 404, who
        assert client.post(url, {"body": "let me in"}).status_code == 404, who
    assert SpectatorPost.objects.count() == 1
    body = _login(client, users["mod"]).get(url).content.decode()
    assert "Wizard-9931" in body and 'id="post-form"' not in body  # the moderator reads


def test_a_refused_spectator_post_writes_nothing(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    spectating.spectate_stop(game=game, user=users["sue"])
    response = _login(client, users["sue"]).post(
        reverse("spectators_thread", args=[game.pk]), {"body": "hello"}
    )
    assert response.status_code == 404
    with pytest.raises(GameRuleError):
        spectating.spectator_post(game=game, user=users["sue"], body="hello")
    assert not SpectatorPost.objects.exists()


# --- the new-game form ---------------------------------------------------------------------
def test_the_new_game_form_stores_the_spectators_choices(client, host):
    from tests.games.test_views import NEW_GAME

    cards = "Priest, Holy Villager\ndirty old bastard basic_villager\ngambler basic_villager\n"
    cards += "judge elder_witch\ncupid village_lover\nharlot village_lover\n"
    data = {**NEW_GAME, "seats_count": 6, "cards": cards, "shuffle": ""}
    _login(client, host)
    form = client.get(reverse("game_new")).content.decode()
    assert 'name="spectators-allowed"' in form and 'name="spectators-delay"' in form
    response = client.post(
        reverse("game_new"), {**data, "spectators-allowed": "on", "spectators-delay": "phase"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    row = SpectatorSettings.objects.get()
    assert (row.allowed, row.delay) == (True, "phase")


# --- the desk's list and its flag -------------------------------------------------------------
def _sign_in(client, user, address):
    client.post(
        reverse("account_login"),
        {"login": user.email, "password": DEFAULT_PASSWORD},
        REMOTE_ADDR=address,
    )
    client.logout()


def test_the_desk_flags_a_spectator_who_shares_a_sign_in_address_with_a_player(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    spectating.spectate_start(game=game, user=users["out"])
    _sign_in(client, users["sue"], "203.0.113.7")
    _sign_in(client, users["cat"], "203.0.113.7")
    _sign_in(client, users["out"], "198.51.100.2")
    assert SignInAddress.objects.count() == 3
    assert not SignInAddress.objects.filter(digest__contains="203").exists()  # no address kept
    listed = {s.name: s.shares_with for s in desk_spectators(game)}
    assert listed == {"Sue": ["Cat"], "Outsider": []}
    body = _login(client, users["mod"]).get(reverse("game_desk", args=[game.pk])).content.decode()
    assert "Shared address" in body and "Cat signed in from too" in body
    # Thirty days on the addresses are forgotten, and the flag with them.
    later = timezone.now() + timedelta(days=31)
    spectating.addresses_forget(now=later)
    assert not SignInAddress.objects.exists()
    assert {s.name: s.shares_with for s in desk_spectators(game, later)}["Sue"] == []


# --- Werewolf: the dead may see what spectators see -------------------------------------------
WOLF_CAST = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "werewolf", ""),
             ("Dan", "villager", ""), ("Eve", "villager", ""), ("Fay", "villager", ""),
             ("Gus", "villager", "")]  # fmt: skip


@pytest.mark.parametrize("dead_see", [True, False])
def test_a_dead_werewolf_player_sees_the_spectators_page_when_the_host_allows(client, dead_see):
    users = users_for(WOLF_CAST)
    mod = UserFactory(player_name="Mod")
    game = make_game(mod, users, cast=WOLF_CAST, ruleset="werewolf", start=False)
    spectating.settings_store(game, allowed=True, delay="none", dead_see=dead_see)
    game = services.game_start(game=game, by=mod)
    lynch(_refresh(game), users, "gus")  # WW-1: Day 1 first
    page = reverse("spectator_page", args=[game.pk])
    thread = reverse("spectators_thread", args=[game.pk])
    _login(client, users["gus"])
    assert client.get(page).status_code == (200 if dead_see else 404)
    assert client.get(thread).status_code == 404  # the dead are players: no thread
    seat_panel = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert (page in seat_panel) is dead_see
    if dead_see:
        assert "Werewolf" in client.get(page).content.decode()  # every card
    assert _login(client, users["dan"]).get(page).status_code == 404  # the living


# --- the game page's button ---------------------------------------------------------------------
def test_the_spectate_button_is_for_members_who_may_follow(client, world):
    game, users = world
    services.player_replace(game=game, seat_name="gus", new_user=users["out"], by=users["mod"])
    start = reverse("spectate_start", args=[game.pk])
    for who, shown in (("sue", True), ("ann", False), ("gus", False), ("mod", False)):
        body = _login(client, users[who]).get(reverse("game_detail", args=[game.pk]))
        assert (start in body.content.decode()) is shown, who


# --- a member's erasure ------------------------------------------------------------------------
def test_an_erased_member_leaves_no_sign_in_address(client, world):
    from games.leaving.services import member_erase

    game, users = world
    _sign_in(client, users["sue"], "203.0.113.9")
    _sign_in(client, users["ann"], "203.0.113.9")
    member_erase(user=users["sue"], by=users["sue"])
    assert list(SignInAddress.objects.values_list("user__player_name", flat=True)) == ["Ann"]


def test_a_members_download_has_their_spectating_and_never_an_address(client, world):
    from games.leaving.services import member_export

    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    spectating.spectator_post(game=game, user=users["sue"], body="Mine-4417")
    _sign_in(client, users["sue"], "203.0.113.9")
    part = member_export(user=users["sue"])["spectating"]
    assert [g["game"] for g in part["games"]] == [game.pk]
    assert [p["body"] for p in part["posts"]] == ["Mine-4417"]
    assert len(part["signed_in_at"]) == 1
    assert "203.0.113.9" not in repr(member_export(user=users["sue"]))
    assert member_export(user=users["ann"])["spectating"]["posts"] == []


def test_a_room_read_by_a_spectator_links_its_posts_on_its_own_page(client, world):
    game, users = world
    spectating.spectate_start(game=game, user=users["sue"])
    services.room_post(game=game, user=users["cat"], room="spies", body="Spy-note-5582")
    page = _login(client, users["sue"]).get(reverse("spectator_page", args=[game.pk]))
    rooms = [u for u in re.findall(r'href="([^"]+)"', page.content.decode()) if "/rooms/" in u]
    assert rooms and all("/spectate/rooms/" in u for u in rooms)
    body = "".join(client.get(u).content.decode() for u in rooms)
    assert "Spy-note-5582" in body
    assert f"/games/{game.pk}/rooms/" not in body  # no link to the members' room
