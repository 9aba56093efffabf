"""Security review: what a player, an outsider, an anonymous visitor, a replaced player, a
dead player or a moderator who wants to play could try against the game pages, each test
asserting the safe behaviour.

The leak matrix (test_leaks.py) reads every page as every kind of viewer; these tests are
the attacks beside it: crafted POSTs (CSRF, GET on mutations, fields the UI never offers),
refusal messages and counts that would tell who holds a card or whether a group exists,
redirects, markup in posts and titles, forged unsubscribe links, caching, and the seed
that deals the cards.
"""

import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Permission
from django.core import signing
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games import mail, services
from games.engine import GameRuleError
from games.mapping import engine_state
from games.models import Game, GameEvent, GameInput, PhaseLockIn, Post, Seat
from games.permissions import can_moderate
from games.selectors import early_end_panel, room_ref
from tests.factories import UserFactory
from tests.games.afterlife_cast import (
    afterlife_users,
    lynch,
    page_text,
    play_to_day_3,
    room_url,
)
from tests.games.conftest import CAST, COURT_CAST, make_game, users_for

pytestmark = pytest.mark.django_db


def _url(name, game, *args):
    return reverse(name, args=[game.pk, *args])


def _login(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


def _messages(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def _cards():
    return [{"character": c, "type": t} for _, c, t in CAST]


def _open_game(host, seats=8, **kwargs):
    return services.game_create(
        host=host,
        ruleset="witchhunt",
        title="Open for sign-ups",
        seats_count=seats,
        seed=7,
        deal={"mode": "explicit", "cards": _cards()[:seats], "shuffle": False},
        **kwargs,
    )


def _snapshot(game):
    """Everything a mutation could change in a game, to check that a refused one did not."""
    game = Game.objects.get(pk=game.pk)
    return (
        game.status,
        game.phase,
        game.paused_at,
        game.deadline_at,
        game.inputs_count,
        GameEvent.objects.filter(game=game).count(),
        Post.objects.filter(game=game).count(),
        sorted(Seat.objects.filter(game=game).values_list("name", "user_id")),
        PhaseLockIn.objects.filter(game=game).count(),
    )


@pytest.fixture
def day_3(moderator):
    """afterlife_cast's game on Day 3: Ann (an Angel) and Bob (a Demon) dead, Dan offstage
    with a last act, Eve offstage (the Magician), Gus replaced by Newcomer."""
    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)
    return game, {**users, "newcomer": newcomer}


# --- who moderates: the host, and those granted games.moderate_any_game ---------------------
def _granted(user, codename="moderate_any_game"):
    """`user` with a permission of the games app (a fresh copy: has_perm caches)."""
    user.user_permissions.add(Permission.objects.get(content_type__app_label="games",
                                                     codename=codename))  # fmt: skip
    return type(user).objects.get(pk=user.pk)


def _moderator_pages(game):
    return [_url("game_desk", game), _url("game_record", game),
            room_url("game_desk_room", game, "coven")]  # fmt: skip


def test_staff_status_alone_moderates_no_game(client, cast_game, cast_users):
    """Staff status opens the admin site, not the desk, the cards or the acts of every game:
    a staff member who does not host the game is a stranger to its moderator's pages."""
    staff = UserFactory(player_name="Staffer", is_staff=True)
    assert not can_moderate(cast_game, staff)
    before = _snapshot(cast_game)
    _login(client, staff)
    for url in _moderator_pages(cast_game):
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"elder_witch" not in response.content and b"Judge" not in response.content
    assert client.post(_url("game_desk_announce", cast_game), {"body": "Hi"}).status_code == 404
    assert client.post(_url("clock_pause", cast_game)).status_code in (302, 404)
    with pytest.raises(GameRuleError):
        services.phase_advance(game=cast_game, by=staff)
    html = client.get(_url("game_detail", cast_game)).content.decode()
    assert (
        "The moderator's desk" not in page_text(html) and _url("game_desk", cast_game) not in html
    )
    assert _snapshot(cast_game) == before
    assert Game.objects.get(pk=cast_game.pk).paused_at is None


def test_the_moderate_any_game_permission_moderates_every_game(client, cast_game, cast_users):
    """Granted on the user or through a group, games.moderate_any_game opens the desk, the
    cards and the record of a game the user does not host; staff status is not needed."""
    from django.contrib.auth.models import Group

    direct = _granted(UserFactory(player_name="Granted", is_staff=True))
    group = Group.objects.create(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="moderate_any_game"))
    member = UserFactory(player_name="Grouped")
    member.groups.add(group)
    for user in (direct, member):
        assert can_moderate(cast_game, user)
        _login(client, user)
        for url in _moderator_pages(cast_game):
            assert client.get(url).status_code == 200, (user, url)
        assert "Judge" in page_text(client.get(_url("game_desk", cast_game)).content.decode())
        assert b"elder_witch" in client.get(_url("game_record", cast_game)).content
    # The permission moderates; another permission (hosting) does not.
    host_only = _granted(UserFactory(player_name="HostOnly"), "add_game")
    assert not can_moderate(cast_game, host_only)
    assert _login(client, host_only).get(_url("game_desk", cast_game)).status_code == 404
    # An inactive account holds no permission.
    direct.is_active = False
    direct.save(update_fields=["is_active"])
    assert not can_moderate(cast_game, type(direct).objects.get(pk=direct.pk))


def test_the_host_always_moderates_their_own_game(client, cast_game, moderator):
    assert not moderator.is_staff and not moderator.has_perm("games.moderate_any_game")
    assert can_moderate(cast_game, moderator)
    _login(client, moderator)
    for url in _moderator_pages(cast_game):
        assert client.get(url).status_code == 200, url
    # ...and no other game: hosting one game moderates no other.
    other = _open_game(_granted(UserFactory(player_name="OtherHost"), "add_game"))
    assert not can_moderate(other, moderator)
    assert client.get(_url("game_desk", other)).status_code == 404


def test_moderates_every_game_answers_as_has_perm(cast_game):
    """permissions.moderates_every_game is has_perm in one query: the same answer for every
    kind of account."""
    from django.contrib.auth.models import Group

    from games.permissions import moderates_every_game

    group = Group.objects.create(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="moderate_any_game"))
    grouped = UserFactory(player_name="Grouped")
    grouped.groups.add(group)
    accounts = [
        UserFactory(player_name="Plain"),
        UserFactory(player_name="Staffer", is_staff=True),
        _granted(UserFactory(player_name="Granted")),
        grouped,
        UserFactory(player_name="Super", is_staff=True, is_superuser=True),
        UserFactory(player_name="Gone", is_active=False, is_superuser=True),
    ]
    for user in accounts:
        fresh = type(user).objects.get(pk=user.pk)
        assert moderates_every_game(fresh) == fresh.has_perm("games.moderate_any_game"), user
    assert [moderates_every_game(type(u).objects.get(pk=u.pk)) for u in accounts] == [
        False, False, True, True, True, False
    ]  # fmt: skip


# --- a moderator who would also play ---------------------------------------------------------
def test_host_and_staff_cannot_take_a_seat_in_a_game_they_moderate(client, moderator, cast_users):
    """The moderator sees every card on the desk and may download the record of a running
    game: a seat of their own would let them play with every card known. Staff status alone
    moderates nothing, so a staff member without games.moderate_any_game may play."""
    game = _open_game(moderator)
    staff = _granted(UserFactory(player_name="Staffer", is_staff=True))
    player_staff = UserFactory(player_name="Playing", is_staff=True)
    services.game_join(game=game, user=player_staff)
    game.seats.filter(user=player_staff).delete()
    for user in (moderator, staff):
        text = page_text(_login(client, user).get(_url("game_detail", game)).content.decode())
        assert "Join the game" not in text and "you cannot take a seat" in text
        response = _login(client, user).post(_url("game_join", game), follow=True)
        assert "You moderate this game and cannot take a seat in it." in _messages(response)
        with pytest.raises(GameRuleError):
            services.game_join(game=game, user=user)
    assert not game.seats.exists()
    response = _login(client, cast_users["ann"]).post(_url("game_join", game), follow=True)
    assert "You have joined the game." in _messages(response)
    assert list(game.seats.values_list("name", flat=True)) == ["ann"]


# --- refusals that would tell whether a group exists (W-8, W-26a) ------------------------------
def _to_night_2(game):
    while Game.objects.get(pk=game.pk).phase != "night 2":
        services.phase_advance(game=Game.objects.get(pk=game.pk), by=game.host)
    return Game.objects.get(pk=game.pk)


def _court_vote_refusal(client, game, user):
    before = GameInput.objects.filter(game=game).count()
    response = _login(client, user).post(
        _url("game_act", game), {"action": "court", "target": "jon"}, follow=True
    )
    assert GameInput.objects.filter(game=game).count() == before
    return _messages(response)


def test_a_court_vote_refusal_does_not_tell_a_non_member_whether_a_court_meets(
    client, court_game, court_users, moderator
):
    """On an even night the engine refused a non-member's Court vote with "you are not in
    the King's Court" where a Court meets and "the King's Court does not meet tonight"
    where none does: anyone could learn, by posting a form the page never offers, that a
    King is in play and his Court still stands (the characters in play are secret here)."""
    no_king = [("Ann", "priest", "holy_villager"), *COURT_CAST[1:]]
    no_court = make_game(moderator, court_users, cast=no_king, options={"public_setup": False})
    with_court, without_court = _to_night_2(court_game), _to_night_2(no_court)
    assert "court" in engine_state(with_court).meetings()
    assert "court" not in engine_state(without_court).meetings()
    for name in ("dan", "bob", "hal"):  # a Villager, an Elder Witch, a Junior Witch
        seen = _court_vote_refusal(client, with_court, court_users[name])
        unseen = _court_vote_refusal(client, without_court, court_users[name])
        assert seen == unseen == ["You are not in the King's Court."], name
    # The Court's members still vote.
    response = _login(client, court_users["ann"]).post(
        _url("game_act", with_court), {"action": "court", "target": "jon"}, follow=True
    )
    assert _messages(response) == ["Your Court vote is now on Jon."]
    assert engine_state(Game.objects.get(pk=with_court.pk)).court_votes.votes == {"ann": "jon"}


@pytest.mark.slow
def test_no_refusal_tells_a_player_whether_a_king_is_in_play(
    client, court_game, court_users, moderator
):
    """Every action and withdrawal the form could carry, by every seat but the King's, is
    refused in the same words whether a King (and his Court) is in play or not."""
    from games.forms import SUBMITTABLE

    no_king = [("Ann", "priest", "holy_villager"), *COURT_CAST[1:]]
    no_court = make_game(moderator, court_users, cast=no_king, options={"public_setup": False})
    games = (_to_night_2(court_game), _to_night_2(no_court))
    members = {"eve", "ivy"}  # the Court's: they know it exists
    for name in sorted(set(court_users) - {"ann"} - members):
        for action in SUBMITTABLE:
            data = {"action": action, "target": "jon", "targets": "jon"}
            said = []
            for game in games:
                response = _login(client, court_users[name]).post(
                    _url("game_act", game), data, follow=True
                )
                said.append(_messages(response))
            assert said[0] == said[1], (name, action, said)
        for what in ("coven", "court", "protect", "veto", "save", "ability", "weapon"):
            said = [
                _messages(
                    _login(client, court_users[name]).post(
                        _url("game_withdraw", game), {"what": what}, follow=True
                    )
                )
                for game in games
            ]
            assert said[0] == said[1], (name, what, said)


# --- the early end's count (W-2a) ----------------------------------------------------------------
def _done_panel(game, user, rf):
    """The "I'm done" panel as the game page shows it to `user`."""
    request = rf.get("/")
    request.user = user
    early = early_end_panel(game, Seat.objects.filter(game=game, user=user).first())
    return page_text(render_to_string("clock/_done.html", {"game": game, "early": early}, request))


def _night_after_lynch(moderator, cast_users, victim):
    game = make_game(moderator, cast_users, early_end=True)
    lynch(game, cast_users, victim)
    services.midnight_pass(game=Game.objects.get(pk=game.pk))
    return Game.objects.get(pk=game.pk)


def test_the_early_end_count_at_night_does_not_tell_the_dead_players_team(
    moderator, cast_users, rf
):
    """After midnight the Angels may still protect and the Demons have nothing left to
    decide: a count of those the night waits for would go up by one when the lynched player
    was a Villager, so a living player would learn the team of the dead (W-16). W-2a counts
    the living alone, and the dead cannot say done."""
    villager = _night_after_lynch(moderator, cast_users, "dan")  # a Basic Villager: an Angel
    witch = _night_after_lynch(moderator, cast_users, "hal")  # a Junior Witch: a Demon
    ann = cast_users["ann"]  # the Priest: she has a night check to make
    panels = [_done_panel(game, ann, rf) for game in (villager, witch)]
    assert "I'm done for night 1" in panels[0]
    assert "7 living players are not done yet." in panels[0]
    assert panels[0] == panels[1]
    # The dead see the same words whatever their team, and cannot say done.
    dead = [
        _done_panel(villager, cast_users["dan"], rf),
        _done_panel(witch, cast_users["hal"], rf),
    ]
    assert dead[0] == dead[1] and "Only the living say they are done" in dead[0]
    for game, name in ((villager, "dan"), (witch, "hal")):
        with pytest.raises(GameRuleError, match="only the living say they are done"):
            services.phase_lock_in(game=game, user=cast_users[name])
        services.phase_lock_in(game=game, user=ann)
    panels = [_done_panel(Game.objects.get(pk=g.pk), ann, rf) for g in (villager, witch)]
    assert "You said you are done for night 1" in panels[0]
    assert "6 living players are not done yet." in panels[0]
    assert panels[0] == panels[1]
    # Every living seat done: the grace begins in both, the dead Angel's choice or not.
    for game in (villager, witch):
        living = [s.name for s in engine_state(game).seats if s.living and s.name != "ann"]
        began = [services.phase_lock_in(game=game, user=cast_users[n]) for n in living]
        assert began[-1] is True
        assert Game.objects.get(pk=game.pk).early_end_phase == "night 1"


def test_the_early_end_by_day_never_waits_for_an_offstage_last_act(moderator, rf):
    """Dan's death was announced this morning, but his last act is usable (W-14): waiting for
    him, or counting him (7 with 6 alive), would show that Dan is offstage (W-14a)."""
    users = afterlife_users()
    game, _ = play_to_day_3(moderator, users, replace=False)
    Game.objects.filter(pk=game.pk).update(early_end=True)
    game = Game.objects.get(pk=game.pk)
    assert engine_state(game).seat("dan").status == "last_act"
    panel = _done_panel(game, users["cat"], rf)
    assert "6 living players are not done yet." in panel  # the six living, the public count
    services.phase_lock_in(game=game, user=users["cat"])
    panel = _done_panel(Game.objects.get(pk=game.pk), users["cat"], rf)
    assert "5 living players are not done yet." in panel
    assert _done_panel(game, users["dan"], rf) == _done_panel(game, users["ann"], rf)
    with pytest.raises(GameRuleError, match="only the living say they are done"):
        services.phase_lock_in(game=game, user=users["dan"])
    # Every living seat but Ivy is done; Dan's last act kills Ivy: the rest are all done,
    # so the grace begins then (W-2a), without ever waiting for Dan.
    for name in ("fay", "gus", "hal", "jon"):
        assert services.phase_lock_in(game=game, user=users[name]) is False
    services.action_submit(game=game, user=users["dan"], action="ability", targets=["ivy"])
    game = Game.objects.get(pk=game.pk)
    state = engine_state(game)
    assert not state.seat("ivy").living and game.phase == "day 3"
    assert game.early_end_phase == "day 3"


# --- the seed ---------------------------------------------------------------------------------
def test_a_games_seed_is_drawn_from_a_space_too_large_to_search(moderator):
    """The seed deals the cards and orders the morning's announcements (W-13), which every
    player sees; with a seed below 10**9 a player could try every seed against their own
    cards and the mornings, offline, and so learn the whole deal."""
    seeds = [
        services.game_create(
            host=moderator,
            ruleset="witchhunt",
            title=f"Seeded {i}",
            seats_count=8,
            deal={"mode": "explicit", "cards": _cards()},
        ).seed
        for i in range(4)
    ]
    # Issue 25: 128 bits from `secrets` (tests/games/test_seed_bits.py pins the source).
    assert all(2**100 <= seed < 2**128 for seed in seeds), seeds
    assert len(set(seeds)) == len(seeds)


# --- caching -------------------------------------------------------------------------------------
@pytest.mark.slow
def test_every_private_page_is_never_cached(client, day_3, moderator):
    game, users = day_3
    token = mail.unsubscribe_token(users["cat"], "reminders")
    pages = [
        (users["cat"], _url("game_detail", game)),
        (users["cat"], _url("game_role", game)),
        (users["hal"], room_url("game_room", game, "coven")),
        (users["ann"], _url("game_afterlife", game)),
        (users["ann"], room_url("game_afterlife_room", game, "coven")),
        (moderator, _url("game_desk", game)),
        (moderator, room_url("game_desk_room", game, "afterlife")),
        (moderator, _url("game_record", game)),
        (moderator, _url("game_desk_remove", game) + "?seat=cat"),
        (moderator, _url("game_desk_stalemate", game)),
        (users["cat"], reverse("profile")),
        (None, reverse("email_unsubscribe", args=[token])),
    ]
    for user, url in pages:
        response = _login(client, user).get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    # A refused write re-renders a private page, or (a post) redirects to one that shows its
    # text once: it is not cached either.
    refused = [
        (users["hal"], room_url("game_room_post", game, "coven"), {"body": " "}),
        (users["ann"], _url("game_afterlife_post", game), {"body": ""}),
        (users["ann"], _url("game_post", game), {"body": "The dead speak."}),
        (moderator, _url("game_desk_replace", game), {"seat": "cat", "who": "nobody-here"}),
    ]
    for user, url, data in refused:
        response = _login(client, user).post(url, data, follow=True)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url


# --- mutations: POST only, with CSRF ------------------------------------------------------------
def _mutations(game, users, moderator):
    """(user allowed to make it, URL, data) for every mutation of a running game."""
    return [
        (users["cat"], _url("game_post", game), {"body": "Hello"}),
        (users["cat"], _url("game_vote", game), {"target": "hal"}),
        (users["cat"], _url("game_unvote", game), {}),
        (users["ivy"], _url("game_act", game), {"action": "ability", "targets": "hal"}),
        (users["hal"], _url("game_withdraw", game), {"what": "ability"}),
        (users["hal"], room_url("game_room_post", game, "coven"), {"body": "Hello"}),
        (users["ann"], _url("game_afterlife_post", game), {"body": "Hello"}),
        (users["cat"], _url("phase_done", game), {}),
        (moderator, _url("game_advance", game), {}),
        (moderator, _url("game_desk_advance", game), {}),
        (moderator, _url("game_desk_announce", game), {"body": "Hello"}),
        (moderator, _url("game_desk_replace", game), {"seat": "cat", "who": "zed"}),
        (moderator, _url("game_desk_remove", game), {"seat": "cat", "confirm": "yes"}),
        (moderator, _url("game_desk_stalemate", game), {"confirm": "yes"}),
        (moderator, _url("clock_pause", game), {}),
        (moderator, _url("clock_resume", game), {}),
        (moderator, _url("clock_extend", game), {"minutes": 60}),
        (moderator, _url("clock_shorten", game), {"minutes": 60}),
    ]


def test_get_never_changes_a_game(client, day_3, moderator):
    game, users = day_3
    UserFactory(player_name="Zed")
    Game.objects.filter(pk=game.pk).update(early_end=True)
    before = _snapshot(game)
    for user, url, data in _mutations(game, users, moderator):
        response = _login(client, user).get(url, data)
        # The two irreversible acts ask first on a GET; every other mutation is POST only.
        expected = 200 if "remove" in url or "stalemate" in url else 405
        assert response.status_code == expected, url
    assert _snapshot(game) == before


def test_every_mutation_needs_the_csrf_token(day_3, moderator):
    game, users = day_3
    UserFactory(player_name="Zed")
    Game.objects.filter(pk=game.pk).update(early_end=True)
    before = _snapshot(game)
    client = Client(enforce_csrf_checks=True)
    for user, url, data in _mutations(game, users, moderator):
        response = _login(client, user).post(url, data)
        assert response.status_code == 403, url
    assert _snapshot(game) == before


def _another_host():
    """A member allowed to host, moderating a game of their own: not this one."""
    other = UserFactory(player_name="OtherHost")
    other.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="add_game")
    )
    other = type(other).objects.get(pk=other.pk)
    _open_game(other)
    return other


@pytest.mark.slow
def test_desk_acts_are_404_to_everyone_but_the_moderator(client, day_3, moderator):
    game, users = day_3
    before = _snapshot(game)
    desk_acts = [m for m in _mutations(game, users, moderator) if "/desk/" in m[1]]
    strangers = [None, UserFactory(player_name="Zed"), _another_host(), users["gus"],
                 users["ann"], users["hal"]]  # fmt: skip
    for user in strangers:
        for _, url, data in desk_acts:
            assert _login(client, user).post(url, data).status_code == 404, (user, url)
            assert _login(client, user).get(url).status_code in (404, 405), (user, url)
    assert _snapshot(game) == before


# --- redirects ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        " //evil.example",
    ],
)
def test_next_never_sends_the_moderator_to_another_site(client, cast_game, moderator, target):
    _login(client, moderator)
    response = client.post(_url("clock_pause", cast_game), {"next": target})
    assert response.status_code == 302
    assert response["Location"] == _url("game_detail", cast_game)


def test_next_on_the_same_site_is_followed(client, cast_game, moderator):
    _login(client, moderator)
    response = client.post(_url("clock_pause", cast_game), {"next": _url("game_desk", cast_game)})
    assert response["Location"] == _url("game_desk", cast_game)


# --- the public thread never shows another thread -----------------------------------------------
@pytest.fixture
def coven_notes(cast_game, cast_users):
    """Six posts in the Coven's room, numbered 1 to 6 in it; the public thread holds fewer."""
    for i in range(1, 7):
        services.room_post(
            game=cast_game, user=cast_users["bob"], room="coven", body=f"Coven-secret-{i}"
        )
    services.post_create(game=cast_game, user=cast_users["ann"], body="Public-hello")
    assert Post.objects.filter(game=cast_game, thread="public").count() < 6
    return cast_game


def test_reply_and_quote_never_bring_in_a_post_of_another_thread(client, coven_notes, cast_users):
    game = coven_notes
    public_top = Post.objects.filter(game=game, thread="public").order_by("-number").first()
    _login(client, cast_users["cat"])
    for key in ("reply", "quote"):
        for number in range(1, 7):
            html = client.get(_url("game_detail", game), {key: number}).content.decode()
            assert "Coven-secret" not in html, (key, number)
        html = client.get(_url("game_detail", game), {key: public_top.number}).content.decode()
        assert "Public-hello" in page_text(html.split('id="post-form"')[1])  # the quote works
    response = client.post(_url("game_post", game), {"body": "Re", "reply_to": 6}, follow=True)
    assert response.status_code == 200
    assert "There is no post #6 to reply to." in page_text(response.content.decode())
    assert not Post.objects.filter(game=game, thread="public", body="Re").exists()


def test_iso_filter_and_pages_show_only_the_public_thread(client, coven_notes, cast_users):
    game = coven_notes
    _login(client, cast_users["cat"])
    for query in ({"only": "bob"}, {"only": "coven"}, {"page": 2}, {"page": -1}, {"page": "x"}):
        response = client.get(_url("game_detail", game), query)
        assert response.status_code == 200
        assert "Coven-secret" not in response.content.decode(), query


def test_room_posts_and_the_room_404_say_nothing_about_whether_a_group_exists(
    client, cast_game, cast_users
):
    """A POST to a group's room by a non-member is the same 404 as one to a group that does
    not exist, and stores nothing."""
    before = _snapshot(cast_game)
    _login(client, cast_users["ann"])
    existing = client.post(room_url("game_room_post", cast_game, "coven"), {"body": "Let me in"})
    missing = client.post(room_url("game_room_post", cast_game, "court"), {"body": "Let me in"})
    assert existing.status_code == missing.status_code == 404

    def unmasked(response):  # each page carries its own masking of the same CSRF token
        return re.sub(r'value="[A-Za-z0-9]{64}"', "", response.content.decode())

    assert unmasked(existing) == unmasked(missing)
    assert _snapshot(cast_game) == before


# --- room ids: a URL never names a room by its meeting key ------------------------------------
LOVERS_CAST = [  # two Lover pairs: Fay and Gus, Ivy and Jon
    ("Ann", "priest", "holy_villager"),
    ("Bob", "judge", "elder_witch"),
    ("Cat", "oracle", "village_spy"),
    ("Dan", "gravedigger", "basic_villager"),
    ("Eve", "inquisitor", "basic_villager"),
    ("Fay", "cupid", "village_lover"),
    ("Gus", "harlot", "village_lover"),
    ("Hal", "wizard", "junior_witch"),
    ("Ivy", "survivalist", "village_lover"),
    ("Jon", "recluse", "village_lover"),
]
# The same cards with Ann and Bob holding Ivy's and Jon's: Ann and Bob are the first pair,
# and Fay and Gus the second (the engine's lovers-2), by seat order.
LOVERS_LATER = [
    (name, *LOVERS_CAST[{0: 8, 1: 9, 8: 0, 9: 1}.get(i, i)][1:])
    for i, (name, _, _) in enumerate(LOVERS_CAST)
]
ROOM_ID = re.compile(r"/rooms/([0-9a-f]{20})/")


@pytest.fixture
def lovers_games(traveller, moderator):
    """Day 1 of two games dealt the same cards: Fay and Gus the first Lover pair in one, the
    second in the other; each pair has written in its room."""
    users = users_for(LOVERS_CAST)
    games = []
    for cast in (LOVERS_CAST, LOVERS_LATER):
        game = make_game(moderator, users, cast=cast)
        for seat in ("fay", "ann" if cast is LOVERS_LATER else "ivy"):
            key = next(k for k, m in engine_state(game).meetings().items() if seat in m)
            services.room_post(game=game, user=users[seat], room=key, body=f"{seat}-note")
        games.append(game)
    first, later = games
    assert [sorted(p) for p in later.lovers] == [["ann", "bob"], ["fay", "gus"]]
    assert engine_state(later).meetings()["lovers-2"] == ["fay", "gus"]
    assert engine_state(first).meetings()["lovers-1"] == ["fay", "gus"]
    return first, later, users


def _as_seen(client, user, game):
    """`user`'s game page, role page and Lovers' room in `game`, with the game's id, the
    CSRF token and the room's id (opaque, and different in every game) made the same."""
    pages = []
    for url in (_url("game_detail", game), _url("game_role", game)):
        pages.append(_login(client, user).get(url).content.decode())
    links = set(re.findall(r"/rooms/([^/\"]+)/", pages[1]))
    assert len(links) == 1, links  # the Lovers' room
    ref = links.pop()
    pages.append(client.get(_url("game_room", game, ref)).content.decode())
    same = []
    for html in pages:
        html = html.replace(f"/games/{game.pk}/", "/games/N/")
        html = re.sub(r'value="[A-Za-z0-9]{64}"', 'value=""', html)
        html = re.sub(r'class="fingerprint">[0-9a-f]{64}', "", html)  # salted: docs/fair-deal.md
        if re.fullmatch(r"[0-9a-f]{20}", ref):  # an opaque id: this game's own
            html = html.replace(f"/rooms/{ref}/", "/rooms/ID/")
            html = html.replace(f"/posts/{ref}/", "/posts/ID/")  # a post's "Report or ignore"
            html = html.replace(f'value="{ref}"', 'value="ID"')  # "Mark all read" names it
        same.append(html)
    return same


def test_a_lovers_room_does_not_tell_how_many_pairs_sit_before_them(client, lovers_games):
    """The engine keys the Lovers' rooms lovers-1, lovers-2… in seat order: in a URL or a
    page such a key would tell Fay that another pair sits before hers. Her pages are the
    same whether her pair is the first or the second."""
    first, later, users = lovers_games
    for name in ("fay", "gus"):
        seen = [_as_seen(client, users[name], game) for game in (first, later)]
        for a, b in zip(*seen, strict=True):
            assert page_text(a) == page_text(b), name
            assert a == b, name
            assert not re.search(r"lovers-\d", a), name


@pytest.mark.slow
def test_two_lover_pairs_have_opaque_ids_and_keep_their_access_rules(
    client, lovers_games, moderator
):
    _, game, users = lovers_games
    ids = {key: room_ref(game, key) for key in ("lovers-1", "lovers-2")}
    assert len(set(ids.values())) == 2
    for key, ref in ids.items():
        assert re.fullmatch(r"[0-9a-f]{20}", ref), (key, ref)
    members = {"lovers-1": ("ann", "bob"), "lovers-2": ("fay", "gus")}
    everyone = [*users.values(), moderator, UserFactory(player_name="Zed"), None]
    for key, ref in ids.items():
        for user in everyone:
            allowed = user is not None and user.player_key in members[key]
            response = _login(client, user).get(_url("game_room", game, ref))
            assert response.status_code == (200 if allowed else 404), (key, user)
        # Each pair's page links its own room and no other.
        role = _login(client, users[members[key][0]]).get(_url("game_role", game))
        assert set(ROOM_ID.findall(role.content.decode())) == {ref}
    # A member writes in the room by its id; the post keeps the engine's key, shown nowhere.
    response = _login(client, users["fay"]).post(
        _url("game_room_post", game, ids["lovers-2"]), {"body": "By-id-9931"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(_url("game_room", game, ids["lovers-2"]))
    assert Post.objects.get(game=game, body="By-id-9931").thread == "lovers-2"
    # The moderator reads both rooms by their ids on the desk.
    _login(client, moderator)
    desk = client.get(_url("game_desk", game)).content.decode()
    assert set(ids.values()) <= set(ROOM_ID.findall(desk))
    for ref in ids.values():
        assert client.get(_url("game_desk_room", game, ref)).status_code == 200
    # An id is this game's: the same pair's id from the other game opens nothing here.
    other = room_ref(lovers_games[0], "lovers-1")
    assert _login(client, users["fay"]).get(_url("game_room", game, other)).status_code == 404


def test_a_room_key_in_a_url_is_a_404_for_everyone(client, lovers_games, moderator):
    """Old links and guesses (lovers-1, coven…) name no room: a 404 for the members and the
    moderator too, the same page as for a room that does not exist, and nothing stored."""
    _, game, users = lovers_games
    before = _snapshot(game)

    def body(response):
        assert response.status_code == 404
        return re.sub(r'value="[A-Za-z0-9]{64}"', "", response.content.decode())

    for key, member in (("lovers-1", "ann"), ("lovers-2", "fay"), ("coven", "bob"),
                        ("spies", "cat"), ("juniors", "hal")):  # fmt: skip
        _login(client, users[member])
        missing = body(client.get(_url("game_room", game, "no-such-room")))
        assert body(client.get(_url("game_room", game, key))) == missing, key
        response = client.post(_url("game_room_post", game, key), {"body": "By-key-1"})
        assert body(response) == missing, key
        _login(client, moderator)
        assert client.get(_url("game_desk_room", game, key)).status_code == 404, key
    assert _snapshot(game) == before
    # After the end every thread is open to everyone (W-71), by its id alone.
    services.stalemate_declare(game=game, by=moderator)
    _login(client, None)
    for key in ("lovers-1", "lovers-2"):
        assert client.get(_url("game_reveal_room", game, key)).status_code == 404, key
        assert client.get(room_url("game_reveal_room", game, key)).status_code == 200, key
    reveal = client.get(_url("game_reveal", game)).content.decode()
    assert not re.search(r"lovers-\d", reveal)
    assert room_url("game_reveal_room", game, "lovers-2") in reveal


# --- fields the UI never offers ----------------------------------------------------------------
def test_a_post_cannot_choose_its_thread_kind_seat_or_number(client, cast_game, cast_users):
    _login(client, cast_users["ann"])
    client.post(
        _url("game_post", cast_game),
        {"body": "Mine", "thread": "coven", "kind": "moderator", "seat": "bob", "number": 1},
    )
    post = Post.objects.get(game=cast_game, body="Mine")
    assert (post.thread, post.kind, post.seat.name, post.author) == (
        "public",
        "player",
        "ann",
        cast_users["ann"],
    )
    assert post.number == Post.objects.filter(game=cast_game, thread="public").count()
    _login(client, cast_users["bob"])
    client.post(room_url("game_room_post", cast_game, "coven"), {"body": "Ours", "thread": "spies"})
    assert Post.objects.get(game=cast_game, body="Ours").thread == "coven"


@pytest.mark.slow
@pytest.mark.parametrize(
    "data",
    [
        {"action": "vote", "target": "bob"},
        {"action": "unvote"},
        {"action": "withdraw", "what": "vote"},
        {"action": "advance"},
        {"action": "moderator", "player": "bob"},
        {"action": "replace", "player": "bob"},
        {"action": "ability", "targets": "nobody-here"},
        {"action": "coven", "target": "<script>"},
    ],
)
def test_actions_the_form_does_not_offer_are_refused(client, cast_game, cast_users, data):
    before = _snapshot(cast_game)
    response = _login(client, cast_users["ann"]).post(
        _url("game_act", cast_game), data, follow=True
    )
    assert _messages(response) == ["That is not a valid action."]
    assert _snapshot(cast_game) == before


def test_an_action_is_always_the_seats_own(client, cast_game, cast_users):
    """An `actor` or `seat` field in the form cannot make another seat act."""
    services.phase_advance(game=cast_game, by=cast_game.host)  # Night 1
    _login(client, cast_users["ann"]).post(
        _url("game_act", Game.objects.get(pk=cast_game.pk)),
        {"action": "ability", "targets": "bob", "actor": "eve", "seat": "eve"},
    )
    steps = list(GameInput.objects.filter(game=cast_game, seat__isnull=False).values("step"))
    assert steps[-1]["step"]["actor"] == "ann"
    assert GameInput.objects.filter(game=cast_game).last().seat.name == "ann"


def test_a_withdrawal_of_something_never_offered_is_refused(client, cast_game, cast_users):
    before = _snapshot(cast_game)
    for what in ("vote", "moderator", "everything", "coven"):
        response = _login(client, cast_users["ann"]).post(
            _url("game_withdraw", cast_game), {"what": what}, follow=True
        )
        assert _messages(response), what
        assert not any(m.startswith("You withdrew") for m in _messages(response)), what
    assert _snapshot(cast_game) == before


# --- the replaced, the dead and the offstage ----------------------------------------------------
def test_a_replaced_player_can_no_longer_act_read_or_write(client, day_3):
    game, users = day_3
    gus = users["gus"]
    before = _snapshot(game)
    _login(client, gus)
    for url in (
        _url("game_role", game),
        room_url("game_room", game, "lovers-1"),
        _url("game_afterlife", game),
    ):
        assert client.get(url).status_code == 404, url
    for url, data in (
        (_url("game_act", game), {"action": "ability", "targets": "fay"}),
        (_url("game_withdraw", game), {"what": "ability"}),
        (room_url("game_room_post", game, "lovers-1"), {"body": "Still me"}),
    ):
        assert client.post(url, data).status_code == 404, url
    for name, data in (("game_post", {"body": "Still me"}), ("game_vote", {"target": "hal"})):
        client.post(_url(name, game), data)
    assert _snapshot(game) == before
    assert not Post.objects.filter(game=game, body="Still me").exists()


def test_the_dead_and_the_offstage_cannot_reach_the_living_or_the_afterlife(client, day_3):
    game, users = day_3
    before = _snapshot(game)
    # Ann is dead: the afterlife is hers, the public thread and her old rooms are not.
    _login(client, users["ann"])
    client.post(_url("game_post", game), {"body": "From beyond"})
    client.post(_url("game_vote", game), {"target": "hal"})
    assert client.post(room_url("game_room_post", game, "spies"), {"body": "x"}).status_code == 404
    # Dan (a last act) and Eve (the Magician) are offstage: no afterlife (W-14a, W-41).
    for name in ("dan", "eve"):
        _login(client, users[name])
        assert client.get(_url("game_afterlife", game)).status_code == 404, name
        assert client.get(room_url("game_afterlife_room", game, "coven")).status_code == 404, name
        response = client.post(_url("game_afterlife_post", game), {"body": "Let me in"})
        assert response.status_code == 404, name
    assert _snapshot(game) == before


def test_a_removed_player_has_no_afterlife_no_room_and_no_voice(client, cast_game, cast_users):
    """W-72: the removed count as dead but have no afterlife; Cat, a Village Spy, loses her
    room at once."""
    cat = cast_users["cat"]
    assert _login(client, cat).get(room_url("game_room", cast_game, "spies")).status_code == 200
    services.player_remove(game=cast_game, seat_name="cat", by=cast_game.host)
    before = _snapshot(cast_game)
    _login(client, cat)
    for url in (
        room_url("game_room", cast_game, "spies"),
        _url("game_afterlife", cast_game),
        room_url("game_afterlife_room", cast_game, "coven"),
    ):
        assert client.get(url).status_code == 404, url
    for url in (
        room_url("game_room_post", cast_game, "spies"),
        _url("game_afterlife_post", cast_game),
    ):
        assert client.post(url, {"body": "Still here"}).status_code == 404, url
    client.post(_url("game_post", cast_game), {"body": "Still here"})
    client.post(_url("game_vote", cast_game), {"target": "bob"})
    assert _snapshot(cast_game) == before
    text = page_text(client.get(_url("game_role", cast_game)).content.decode())
    assert "The moderator removed you from the game" in text and "Judge" not in text


# --- markup --------------------------------------------------------------------------------------
PAYLOAD = (
    '<script>alert("post")</script>\n\n'
    "[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=)\n\n"
    '<img src=x onerror=alert(1)> <a href="javascript:alert(2)" onclick="x()">a</a>\n\n'
    '<div style="background:url(x)" onmouseover="alert(3)">raw block</div>\n\n'
    '[t](http://ok.example "a\\" onmouseover=\\"alert(4)")\n\n'
    "<svg/onload=alert(5)> <iframe src=//evil.example></iframe>"
)


class _Markup(HTMLParser):
    def __init__(self):
        super().__init__()
        self.bad = []
        self._script = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on") or name == "style" and tag != "html":
                self.bad.append((tag, name, value))
            if name in ("href", "src") and value and re.match(r"\s*(javascript|data):", value):
                self.bad.append((tag, name, value))
        if tag in ("img", "svg", "iframe", "object", "embed"):
            self.bad.append((tag, "", ""))
        self._script = tag == "script" and not dict(attrs).get("src")

    def handle_data(self, data):
        if self._script and data.strip():
            self.bad.append(("script", "", data))

    def handle_endtag(self, tag):
        self._script = False


def _bad_markup(html):
    parser = _Markup()
    parser.feed(html)
    return parser.bad


def test_markdown_cannot_carry_script_into_any_thread(client, cast_game, cast_users, moderator):
    _login(client, cast_users["ann"]).post(_url("game_post", cast_game), {"body": PAYLOAD})
    _login(client, cast_users["bob"]).post(
        room_url("game_room_post", cast_game, "coven"), {"body": PAYLOAD}
    )
    _login(client, moderator).post(_url("game_desk_announce", cast_game), {"body": PAYLOAD})
    assert Post.objects.filter(game=cast_game, body=PAYLOAD.strip()).count() == 3
    pages = [
        (cast_users["cat"], _url("game_detail", cast_game)),
        (cast_users["cat"], _url("game_detail", cast_game) + "?quote=2"),
        (cast_users["bob"], room_url("game_room", cast_game, "coven")),
        (moderator, room_url("game_desk_room", cast_game, "coven")),
        (moderator, _url("game_desk", cast_game)),
    ]
    for user, url in pages:
        html = _login(client, user).get(url).content.decode()
        assert _bad_markup(html) == [], url
    services.stalemate_declare(game=cast_game, by=moderator)
    for url in (_url("game_reveal", cast_game), room_url("game_reveal_room", cast_game, "coven")):
        assert _bad_markup(_login(client, None).get(url).content.decode()) == [], url


def test_a_game_title_and_a_deal_line_are_shown_as_text(client, moderator, cast_users):
    host = moderator
    host.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="add_game")
    )
    host = type(host).objects.get(pk=host.pk)
    title = '<script>alert("title")</script><img src=x onerror=alert(1)>'
    game = services.game_create(
        host=host,
        ruleset="witchhunt",
        title=title,
        seats_count=8,
        seed=7,
        deal={"mode": "explicit", "cards": _cards(), "shuffle": False},
    )
    for name in cast_users:
        services.game_join(game=game, user=cast_users[name])
    services.game_start(game=game, by=host)
    for user, url in (
        (None, reverse("game_list")),
        (None, _url("game_detail", game)),
        (cast_users["ann"], _url("game_role", game)),
        (host, _url("game_desk", game)),
    ):
        html = _login(client, user).get(url).content.decode()
        assert _bad_markup(html) == [], url
        assert "&lt;script&gt;alert(&quot;title&quot;)" in html, url
    response = _login(client, host).post(
        reverse("game_new"),
        {
            "ruleset": "witchhunt",
            "title": "Salem",
            "seats_count": 4,
            "deal_mode": "explicit",
            "cards": "<script>alert(9)</script> <img src=x onerror=alert(1)> <b>x</b>\n",
            "day_hours": 48,
            "night_hours": 12,
            "stalemate_cycles": 3,
            "reminder_hours": "24",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert _bad_markup(html) == [] and "&lt;script&gt;alert(9)" in html


# --- the unsubscribe link -------------------------------------------------------------------------
def test_an_unsubscribe_link_cannot_be_turned_on_another_player_or_preference(client, cast_users):
    ann, bob = cast_users["ann"], cast_users["bob"]
    token = mail.unsubscribe_token(ann, "reminders")
    payload, signature = token.rsplit(":", 1)

    def encode(data):
        raw = json.dumps(data, separators=(",", ":")).encode()
        return signing.b64_encode(raw).decode()

    forged = [
        # Ann's signature on another payload: Bob, or Ann's other preference.
        f"{encode({'u': bob.pk, 'p': 'reminders'})}:{signature}",
        f"{encode({'u': ann.pk, 'p': 'phases'})}:{signature}",
        # Signed by the site, but not as an unsubscribe link (another salt, or none).
        signing.dumps({"u": bob.pk, "p": "reminders"}),
        signing.dumps({"u": bob.pk, "p": "reminders"}, salt="games.emails"),
        # The right salt but a shape the site never signs.
        signing.dumps({"u": bob.pk, "p": "everything"}, salt=mail.UNSUBSCRIBE_SALT),
        signing.dumps([bob.pk, "reminders"], salt=mail.UNSUBSCRIBE_SALT),
        f"{payload}:",
        payload,
    ]
    for bad in forged:
        for method in (client.get, client.post):
            response = method(reverse("email_unsubscribe", args=[bad]))
            assert response.status_code == 400, bad
            assert "Bob" not in response.content.decode()
    for user in (ann, bob):
        user.refresh_from_db()
        assert user.email_deadline_reminders and user.email_phase_changes
    # The real link does what it says, for Ann alone, however often it is used.
    for _ in range(2):
        assert client.post(reverse("email_unsubscribe", args=[token])).status_code == 200
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert not ann.email_deadline_reminders and ann.email_phase_changes
    assert bob.email_deadline_reminders


# --- the record -------------------------------------------------------------------------------
def test_the_record_of_a_running_game_is_the_moderators_alone(client, day_3, moderator):
    """The record holds every card: not for a player, the dead, the replaced or a stranger
    while the game runs (the afterlife sees the cards on its page, not the record)."""
    game, users = day_3
    url = _url("game_record", game)
    strangers = (None, UserFactory(player_name="Zed"), _another_host(), users["gus"],
                 users["ann"], users["cat"])  # fmt: skip
    for user in strangers:
        response = _login(client, user).get(url)
        assert response.status_code == 404
        assert b"elder_witch" not in response.content
    assert _login(client, moderator).get(url).status_code == 200
    open_game = _open_game(moderator)
    assert _login(client, moderator).get(_url("game_record", open_game)).status_code == 404


def test_a_forged_engine_state_in_the_cache_is_never_unpickled(cast_game):
    """The cached engine state carries a MAC: a blob someone else wrote into the cache
    (Redis is another service) is ignored and the state is replayed from the inputs."""
    import pickle

    from django.core.cache import cache

    from games import mapping

    key = mapping._key(cast_game)
    assert mapping._open(cache.get(key)) is not None  # the game start cached a sealed state

    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('unpickled a forged cache entry')",))

    forged = pickle.dumps(Boom())
    for blob in (forged, b"\0" * 32 + forged):
        cache.set(key, blob)
        state = mapping.engine_state(cast_game)  # replays instead of unpickling
        assert state.phase == "day 1" and state.seat("ann").living
