"""Query counts of the game pages, pinned: the same for 8 seats and 10 posts as for 48
seats and 1,000 posts (issue 5: at most 12 for the game page)."""

from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.rulesets.witchhunt.cards import CHARACTERS
from games.mapping import engine_state
from games.models import Absence, Game, Post, ReadMark
from games.reports.selectors import ignores_key
from tests.factories import UserFactory
from tests.games.afterlife_cast import afterlife_users, play_to_day_3, room_url

pytestmark = pytest.mark.django_db

GAME_PAGE_MAX = 13  # the vote history: its votes, and the posts they followed
# Issue 15's read state, for a signed-in viewer: the threads' marks and the last visit (one
# read), the visit's upsert and the page's mark (one statement each) on the game page; the
# marks and the mark in a room. Anonymous visitors have none.
READ_STATE = 3
ROOM_READ_STATE = 2
DESK_READ_STATE = 1  # the private threads' "N new"
ABSENCES = 1  # issue 16: the players' absences now or to come, in the player list
# Issue 16's activity and replacements (selectors/activity.py, pinned in test_activity.py):
# seats, posts, visits, prods, absences, volunteers (and a waiting seat's offers).
DESK_ACTIVITY = 7
DESK_HIDDEN = 1  # the posts the moderator hid, with their text
DESK_EMAILS = 1  # issue 25: the game's emails waiting for the mail server (a count)
DESK_CLOCK = 1  # issue 27: "the clock last ran N s ago", the heartbeat's one row
# issue 30: the game's chat webhooks; their recent deliveries are one more, with any
DESK_WEBHOOKS = 2
# issue 31: an anonymous game's choice on the open desk; the members behind the aliases on
# a running one's
DESK_ANONYMITY = 1
SPECTATORS = 1  # issue 31: the game's spectators' settings (the game page's and desk's panel)
# issue 31: the reader's ignores in a room or the afterlife (one query, games/reports); the
# desk's open reports (one)
IGNORES = 1
DESK_REPORTS = 1


def _posts(game, n):
    seats = list(game.seats.select_related("user"))
    first = Post.objects.filter(game=game).count()
    Post.objects.bulk_create(
        (
            Post(
                game=game,
                number=first + i,
                kind="player",
                seat=seats[i % len(seats)],
                author=seats[i % len(seats)].user,
                body=f"post {i}",
                body_html=f"<p>post {i}</p>",
                phase="day 1",
                reply_to=None,
            )
            for i in range(1, n + 1)
        ),
        batch_size=500,
    )


@pytest.fixture
def big_game(moderator):
    """48 seats (every character once) on Day 1, with 1,000 posts and a few votes."""
    users = [UserFactory(player_name=f"P{i:02d}") for i in range(48)]
    types = {"holy_villager": 6, "elder_witch": 8, "junior_witch": 8, "village_spy": 4,
             "village_lover": 4, "basic_villager": 18}  # fmt: skip
    game = services.game_create(
        host=moderator,
        ruleset="witchhunt",
        title="The big one",
        seats_count=48,
        seed=3,
        deal={"mode": "pool", "characters": sorted(CHARACTERS), "types": types},
    )
    for user in users:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=moderator)
    for user in users[:10]:
        services.vote_cast(game=game, user=user, target=users[-1].player_key)
    _posts(game, 1000)
    return game, users[0]


@pytest.fixture
def small_game(cast_game, cast_users):
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    _posts(cast_game, 10)
    return cast_game, cast_users["ann"]


def _count(client, user, path, *, cold=False):
    client.force_login(user)
    caches["pages"].clear()  # the page made whole: its cached parts are counted elsewhere
    ReadMark.objects.filter(user=user).delete()  # the mark moves: the most a page costs
    cache.delete(ignores_key(user.pk))  # "ignores nobody" asked again: the most, as above
    if cold:
        cache.clear()  # the engine state replays from its inputs
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.slow
@pytest.mark.parametrize("cold", [False, True], ids=["cached state", "replayed state"])
def test_game_page_query_count_is_constant(client, big_game, small_game, cold):
    counts = {}
    for label, (game, player) in (("big", big_game), ("small", small_game)):
        detail = reverse("game_detail", args=[game.pk])
        only = game.seats.order_by("position").first().name
        counts[label] = [
            _count(client, player, detail, cold=cold),
            _count(client, player, f"{detail}?page=2", cold=cold),
            _count(client, player, f"{detail}?only={only}", cold=cold),
            _count(client, player, f"{detail}?reply=1", cold=cold),
        ]
        client.logout()
        with CaptureQueriesContext(connection) as anonymous:
            client.get(detail)
        counts[label].append(len(anonymous))
    assert counts["big"] == counts["small"], counts
    assert max(counts["big"]) <= GAME_PAGE_MAX + READ_STATE + ABSENCES + SPECTATORS, counts


@pytest.mark.slow
def test_role_page_and_lobby_query_counts_are_constant(client, big_game, small_game):
    counts = {}
    for label, (game, player) in (("big", big_game), ("small", small_game)):
        counts[label] = [
            _count(client, player, reverse("game_role", args=[game.pk])),
            _count(client, player, reverse("game_list")),
        ]
    assert counts["big"] == counts["small"], counts
    assert max(counts["big"]) <= 10, counts


@pytest.mark.slow
def test_reveal_query_count_is_constant(client, big_game, small_game, moderator):
    counts = {}
    for label, (game, player) in (("big", big_game), ("small", small_game)):
        game.refresh_from_db()
        services.stalemate_declare(game=game, by=moderator)
        counts[label] = [
            _count(client, player, reverse("game_reveal", args=[game.pk])),
            _count(client, player, reverse("game_reveal", args=[game.pk]), cold=True),
        ]
    assert counts["big"] == counts["small"], counts
    # Issue 7 added the moderator's log (inputs, posts) and the private threads' list; the
    # log's hidden posts are one more; issue 31 the players replaced out of each seat.
    assert max(counts["big"]) <= 14, counts


# --- issue 7: the rooms, the afterlife and the desk ---------------------------------------------
ROOM_PAGE_MAX = 11
DESK_MAX = 12


def _room_posts(game, thread, n):
    seats = list(game.seats.select_related("user"))
    Post.objects.bulk_create(
        (
            Post(
                game=game,
                thread=thread,
                number=i,
                kind="player",
                seat=seats[i % len(seats)],
                author=seats[i % len(seats)].user,
                body=f"room post {i}",
                body_html=f"<p>room post {i}</p>",
                phase=game.phase,
            )
            for i in range(1, n + 1)
        ),
        batch_size=500,
    )


def _to_night_with_the_dead(game, n_posts):
    """Lynch a seat that goes to the afterlife (not offstage: no last act, no Magician), then
    fill the Coven's room and the afterlife with posts; returns (Coven member, dead) users."""
    state = engine_state(game)
    offstage = ("dirty_old_bastard", "benevolent_old_dame", "magician")
    target = next(
        s for s in state.seats if s.character not in offstage and s.type != "village_lover"
    )
    seats = {s.name: s for s in game.seats.select_related("user")}
    majority = len(state.seats) // 2 + 1
    voters = [s.name for s in state.seats if s.name != target.name][:majority]
    for name in voters:
        game.refresh_from_db()
        services.vote_cast(game=game, user=seats[name].user, target=target.name)
    game.refresh_from_db()
    assert game.is_night
    member = engine_state(game).meetings()["coven"][0]
    _room_posts(game, "coven", n_posts)
    _room_posts(game, "afterlife", n_posts)
    return seats[member].user, seats[target.name].user


@pytest.mark.slow
@pytest.mark.parametrize("cold", [False, True], ids=["cached state", "replayed state"])
def test_room_afterlife_and_desk_query_counts_are_constant(
    client, big_game, cast_game, moderator, cold
):
    counts = {}
    for label, game, n in (("big", big_game[0], 1000), ("small", cast_game, 10)):
        member, dead = _to_night_with_the_dead(game, n)
        room = room_url("game_room", game, "coven")
        afterlife = reverse("game_afterlife", args=[game.pk])
        counts[label] = {
            "room": _count(client, member, room, cold=cold),
            "room page 2": _count(client, member, f"{room}?page=2", cold=cold),
            "afterlife": _count(client, dead, afterlife, cold=cold),
            "afterlife room": _count(
                client, dead, room_url("game_afterlife_room", game, "coven"), cold=cold
            ),
            "desk": _count(client, moderator, reverse("game_desk", args=[game.pk]), cold=cold),
            "desk room": _count(
                client, moderator, room_url("game_desk_room", game, "coven"), cold=cold
            ),
        }
    assert counts["big"] == counts["small"], counts
    big = counts["big"]
    room_max = ROOM_PAGE_MAX + ROOM_READ_STATE + IGNORES
    assert max(v for k, v in big.items() if k != "desk") <= room_max, counts
    desk_max = DESK_MAX + DESK_READ_STATE + DESK_ACTIVITY + DESK_HIDDEN + DESK_EMAILS + DESK_CLOCK
    desk_max += DESK_WEBHOOKS + DESK_ANONYMITY + SPECTATORS + DESK_REPORTS
    assert big["desk"] <= desk_max, counts


def test_the_done_panel_costs_the_game_page_its_lock_ins_alone_and_the_desk_nothing(
    client, cast_game, moderator, cast_users
):
    """W-2a's "I'm done" beside the thread reads the phase's lock-ins and nothing more: the
    viewer's seat is the page's own. The desk's moderator holds no seat: nothing is read."""
    detail = reverse("game_detail", args=[cast_game.pk])
    desk = reverse("game_desk", args=[cast_game.pk])

    def counts():
        for _ in range(2):  # the visit's writes: its first, then "the visit before" catching up
            _count(client, cast_users["ann"], detail)
        return _count(client, cast_users["ann"], detail), _count(client, moderator, desk)

    page, desk_count = counts()
    Game.objects.filter(pk=cast_game.pk).update(early_end=True)
    assert counts() == (page + 1, desk_count)


# --- issue 13: the engine state is loaded once a page ----------------------------------------
class CountingCache(LocMemCache):
    """The tests' in-memory cache, noting every engine state a page asks it for (a load is
    a fetch, a MAC check and an unpickle, or a replay when the state is not cached)."""

    loads: list[str] = []

    def get(self, key, default=None, version=None):
        if key.startswith("engine-state:"):
            CountingCache.loads.append(key)
        return super().get(key, default, version)


@pytest.fixture
def counting_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": f"{__name__}.CountingCache", "LOCATION": "state-loads"},
        "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    CountingCache.loads = []
    return CountingCache


def _loads(client, user, path, counting, *, cold=False):
    client.force_login(user)
    if cold:
        cache.clear()
    counting.loads = []
    assert client.get(path).status_code == 200
    return len(counting.loads)


@pytest.mark.slow
@pytest.mark.parametrize("cold", [False, True], ids=["cached state", "replayed state"])
def test_every_page_loads_the_engine_state_once(client, moderator, counting_cache, cold):
    users = afterlife_users()
    game, _ = play_to_day_3(moderator, users)
    Game.objects.filter(pk=game.pk).update(early_end=True)  # the "I'm done" panel reads it too
    pages = {
        "game page": (users["cat"], reverse("game_detail", args=[game.pk])),
        "role page": (users["cat"], reverse("game_role", args=[game.pk])),
        "room": (users["hal"], room_url("game_room", game, "coven")),
        "afterlife": (users["ann"], reverse("game_afterlife", args=[game.pk])),
        "afterlife room": (users["ann"], room_url("game_afterlife_room", game, "coven")),
        "desk": (moderator, reverse("game_desk", args=[game.pk])),
        "desk room": (moderator, room_url("game_desk_room", game, "coven")),
    }
    loads = {
        label: _loads(client, user, path, counting_cache, cold=cold)
        for label, (user, path) in pages.items()
    }
    assert loads == dict.fromkeys(pages, 1), loads


# --- issue 16: sign-ups ---------------------------------------------------------------------------
OPEN_PAGE_MAX = 7  # an open game: no engine state, no votes; its sign-up facts and absences
OPEN_DESK_MAX = 5  # the open desk: who signed up, their absences, its chat destinations
OPEN_LOBBY_MAX = 5  # the sign-up facts are the game row's own columns


def _open_game(moderator, users):
    game = services.game_create(
        host=moderator,
        ruleset="werewolf",
        title="Open",
        seats_count=48,
        seed=5,
        deal={"mode": "pool", "roles": ["seer"], "werewolves": 8},
    )
    for user in users:
        services.game_join(game=game, user=user)
    now = timezone.now()
    Absence.objects.bulk_create(
        Absence(user=u, starts_at=now, ends_at=now + timedelta(days=2), note="n") for u in users
    )
    # The bar set after they signed up: a member without a seat is told how many they need.
    Game.objects.filter(pk=game.pk).update(min_finished_games=1)
    return game


def test_open_game_pages_and_the_lobby_query_counts_are_constant(client, moderator):
    counts = {}
    outsider = UserFactory(player_name="Outsider")
    for label, n in (("small", 3), ("big", 40)):
        users = [UserFactory(player_name=f"{label}{i:02d}") for i in range(n)]
        game = _open_game(moderator, users)
        detail = reverse("game_detail", args=[game.pk])
        counts[label] = [
            _count(client, outsider, detail),  # the bar of finished games: one query
            _count(client, users[0], detail),
            _count(client, moderator, reverse("game_desk", args=[game.pk])),
            _count(client, outsider, reverse("game_list")),
        ]
    assert counts["big"] == counts["small"], counts
    page, seated, desk, lobby = counts["big"]
    assert max(page, seated) <= OPEN_PAGE_MAX + READ_STATE, counts
    assert max(page, seated) <= OPEN_PAGE_MAX + READ_STATE + SPECTATORS, counts
    assert desk <= OPEN_DESK_MAX + DESK_ANONYMITY + SPECTATORS, counts
    assert lobby <= OPEN_LOBBY_MAX, counts
