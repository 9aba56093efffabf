"""The leak matrix: every page of a game in progress, as every kind of viewer, must show
each secret exactly to those the rulings entitle (and each entitled viewer must see it,
so that the test can fail).

Two games. The first is conftest's `court_game` on Day 2, with the characters in play kept
secret (public_setup off), so every card name is a secret of its holder; each of its
groups has written in its room. The second is afterlife_cast's game on Day 3, which adds
the viewers of issue 7: a dead Angel and a dead Demon in the afterlife (W-17), a last-act
holder and a fake-dead Magician, both offstage (W-14a, W-41), a replaced player's old
account and the newcomer in the seat (W-72).
"""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Post
from tests.factories import UserFactory
from tests.games.afterlife_cast import (
    AFTERLIFE_POST,
    COVEN_POST,
    LOVERS_POST,
    SPIES_POST,
    afterlife_users,
    page_text,
    play_to_day_3,
    room_url,
)
from tests.games.conftest import CAST, make_game

pytestmark = pytest.mark.django_db

MOD = "mod"
SEATS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
VIEWERS = ("anonymous", "outsider", MOD, *SEATS)
# Each group's room in the court game, its members, and what they wrote in it.
COURT_ROOMS = {
    "court": ({"ann", "eve", "ivy"}, "Court-note-1101"),
    "coven": ({"bob"}, "Coven-note-2202"),
    "juniors": ({"hal"}, "Junior-room-3303"),
    "spies": ({"cat"}, "Spy-room-4404"),
    "lovers-1": ({"fay", "gus"}, "Lover-room-5505"),
}

# fact: (pattern in a page's visible text, who must see it, who else may)
FACTS = {
    # Every character is its holder's secret (the moderator holds the record).
    # "the King's Court" and the Queen's "After the King selects his Court" name no holder.
    "Ann is the King": (r"\bKing\b(?!'s Court| selects)", {"ann"}, {MOD}),
    "Bob is the Judge": (r"\bJudge\b", {"bob"}, {MOD}),
    "Cat is the Oracle": (r"\bOracle\b", {"cat"}, {MOD}),
    "Dan is the Gravedigger": (r"\bGravedigger\b", {"dan"}, {MOD}),
    "Eve is the Queen": (r"\bQueen\b", {"eve"}, {MOD}),
    "Fay is Cupid": (r"\bCupid\b", {"fay"}, {MOD}),
    "Gus is the Harlot": (r"\bHarlot\b", {"gus"}, {MOD}),
    "Hal is the Wizard": (r"\bWizard\b", {"hal"}, {MOD}),
    "Ivy is the Inquisitor": (r"\bInquisitor\b", {"ivy"}, {MOD}),
    "Jon is the Survivalist": (r"\bSurvivalist\b", {"jon"}, {MOD}),
    # Player types: the holder, and the groups W-24 tells.
    "Elder Witches": (r"\bElder\b", {"bob", "hal"}, {MOD}),
    "Junior Witches": (r"\bJunior\b", {"bob", "hal"}, {MOD}),
    "Village Spies": (r"\bVillage Spy\b|\bSpies\b", {"bob", "cat", "hal"}, {MOD}),
    "Witches at all": (r"\bWitch(es)?\b", {"bob", "hal", "eve"}, {MOD}),  # Eve: the Queen
    "Holy Villagers": (r"\bHoly\b", {"ann", "ivy"}, {MOD}),  # Ivy: her check of Ann
    "Basic Villagers": (r"\bBasic Villager\b", {"dan", "eve", "ivy", "jon"}, {MOD}),
    "Village Lovers": (r"\bVillage Lovers?\b", {"fay", "gus"}, {MOD}),
    # What the W-24 groups learn.
    "the Elder's mixed list": (r"Spies: Cat, Hal — 1 Witch", {"bob"}, {MOD}),
    "the Junior's mixed list": (r"Spies: Bob, Cat — 1 Witch", {"hal"}, {MOD}),
    "Fay's Lover": (r"Your Lover: Gus", {"fay"}, {MOD}),
    "Gus's Lover": (r"Your Lover: Fay", {"gus"}, {MOD}),
    # Night 1's actions and results.
    "the Coven's vote": (r"Coven: .{0,12}votes? to kill", {"bob"}, {MOD}),
    "the Coven's target": (r"kill Jon", {"bob"}, {MOD}),
    "the King's pick": (r"chose: Ivy", {"ann"}, {MOD}),
    "the Inquisitor's pick": (r"chose: Ann", {"ivy"}, {MOD}),
    "the Inquisitor's result": (r"Ann is a Holy Villager", {"ivy"}, {MOD}),
    "the Court's membership": (r"The King's Court: Ann, Eve, Ivy", {"ann", "eve", "ivy"}, {MOD}),
    "the Queen's result": (r"even number of Witches", {"eve"}, {MOD}),
    "Cupid's result": (r"The Village Lovers: Fay, Gus", {"fay"}, {MOD}),
    "the Harlot's result": (r"Fay, a Village Lover, was protected", {"gus"}, {MOD}),
    "the Oracle's result": (r"kills at Halftime", {"cat"}, {MOD}),
    # Every private thread (W-26a): its members, and the moderator on the desk.
    **{
        f"the {key} room's posts": (re.escape(note), members, {MOD})
        for key, (members, note) in COURT_ROOMS.items()
    },
    # Who is in a group is the group's to know: a room's member list names them.
    "the Court's members listed": (
        r"Members Ann( you)? Eve( you)? Ivy",
        {"ann", "eve", "ivy"},
        {MOD},
    ),
}
# The record holds every card by its key: only the moderator may download it while the game
# runs. Keys are searched in the raw responses: no page shows them, so any one found is a
# card that leaked (a seat's card rendered raw, an option value, an attribute).
KEYS = ["king", "judge", "oracle", "gravedigger", "queen", "cupid", "harlot", "wizard",
        "inquisitor", "survivalist", "elder_witch", "junior_witch", "village_spy",
        "village_lover", "holy_villager", "basic_villager"]  # fmt: skip
# Keys that name no room of the game: a GET answers 404 whoever asks.
NO_ROOMS = ("travelers", "innkeeper", "musketeers", "pack")
# A URL names a room by its opaque id, never by its meeting key: a key typed into a room URL
# (an old link, a guess) is a 404 whoever asks, a member and the moderator included.
GUESSED = ("coven", "juniors", "spies", "court", "lovers-1", "lovers-2", "lovers")
ROOM_ROUTES = ("game_room", "game_room_post", "game_afterlife_room", "game_desk_room",
               "game_reveal_room")  # fmt: skip
# A room link in a page: /rooms/<id>/ with a 20-hex-digit id, or the afterlife by name.
ROOM_LINK = re.compile(r"/rooms/([^/\s\"'?#]+)/")


@pytest.fixture
def long_thread(court_game, court_users):
    """Sixty more posts, so that the thread has a second page, and a reply; and a post in
    each group's room by one of its members."""
    seats = {s.name: s for s in court_game.seats.all()}
    first = Post.objects.filter(game=court_game).count()
    Post.objects.bulk_create(
        Post(
            game=court_game,
            number=first + i,
            kind="player",
            seat=seats[SEATS[i % len(SEATS)]],
            author=court_users[SEATS[i % len(SEATS)]],
            body=f"Chatter {i}",
            body_html=f"<p>Chatter {i}</p>",
            phase="day 2",
        )
        for i in range(1, 61)
    )
    for key, (members, note) in COURT_ROOMS.items():
        author = court_users[sorted(members)[0]]
        services.room_post(game=court_game, user=author, room=key, body=note)
    return court_game


def _pages(game, rooms, read_only_rooms):
    """(label, url) for every page and partial of a game: `rooms` are the meeting keys to
    try as a member would, `read_only_rooms` those to try from the afterlife and the desk."""
    detail = reverse("game_detail", args=[game.pk])
    pages = [
        ("lobby", reverse("game_list")),
        ("game page", detail),
        ("game page 2", f"{detail}?page=2"),
        ("one player's posts", f"{detail}?only=ann"),
        ("another player's posts", f"{detail}?only=bob"),
        ("a reply", f"{detail}?reply=1"),
        ("one player's posts, further on", f"{detail}?only=ann&after=1"),
        ("the last page", f"{detail}?page=last"),
        ("Day 1's votes", reverse("game_votes_day", args=[game.pk, 1])),
        # Issue 15: "since you last read", from the game's first event (all of it so far).
        ("since", reverse("game_since", args=[game.pk])),
        ("since, the last visit", reverse("game_since", args=[game.pk])),
        ("the vote count as of post 2", reverse("game_votes_at_post", args=[game.pk, 2])),
        ("the vote count as of post 4", reverse("game_votes_at_post", args=[game.pk, 4])),
        ("role page", reverse("game_role", args=[game.pk])),
        ("reveal", reverse("game_reveal", args=[game.pk])),
        ("record", reverse("game_record", args=[game.pk])),
        ("afterlife", reverse("game_afterlife", args=[game.pk])),
        ("desk", reverse("game_desk", args=[game.pk])),
        ("admin: games", reverse("admin:games_game_changelist")),
        ("admin: a game", reverse("admin:games_game_change", args=[game.pk])),
        ("admin: assignments", reverse("admin:games_assignment_changelist")),
        ("admin: events", reverse("admin:games_gameevent_changelist")),
        ("admin: inputs", reverse("admin:games_gameinput_changelist")),
    ]
    for key in (*rooms, *NO_ROOMS, "afterlife"):
        pages.append((f"room: {key}", room_url("game_room", game, key)))
    for key in (*read_only_rooms, *NO_ROOMS, "afterlife"):
        url = room_url("game_afterlife_room", game, key)
        pages.append((f"afterlife room: {key}", url))
    for key in (*read_only_rooms, *NO_ROOMS, "afterlife"):
        url = room_url("game_desk_room", game, key)
        pages.append((f"desk room: {key}", url))
        url = room_url("game_reveal_room", game, key)
        pages.append((f"reveal room: {key}", url))
    for key in GUESSED:
        for route in ROOM_ROUTES:
            if route != "game_room_post":  # a GET there is 405 whoever asks
                pages.append((f"guessed: {route} {key}", reverse(route, args=[game.pk, key])))
    return pages


def _status(label, viewer, *, seated, members, afterlife, desk_rooms):
    """The status `viewer` must get for the page `label`."""
    if label.startswith("guessed"):
        return 404
    if label.startswith("admin"):
        return 302  # nobody in the matrix is staff: sent to sign in
    if label.startswith("since"):
        return 302 if viewer == "anonymous" else 200  # a signed-in member's own summary
    if label == "role page":
        return 200 if viewer in seated else 404
    if label == "reveal" or label.startswith("reveal room"):
        return 404  # not before the end (W-71)
    if label in ("record", "desk"):
        return 200 if viewer == MOD else 404
    if label == "afterlife":
        return 200 if viewer in afterlife else 404
    if label.startswith("room: "):
        return 200 if viewer in members.get(label.removeprefix("room: "), ()) else 404
    if label.startswith("afterlife room: "):
        key = label.removeprefix("afterlife room: ")  # the afterlife writes on its own page
        return 200 if viewer in afterlife and key in desk_rooms and key != "afterlife" else 404
    if label.startswith("desk room: "):
        return 200 if viewer == MOD and label.removeprefix("desk room: ") in desk_rooms else 404
    return 200


def _visit(client, user, pages, expected):
    """Every page as `user`: (visible text, raw HTML) of them all, each status checked."""
    client.logout()
    if user is not None:
        client.force_login(user)
    texts, raws = [], []
    for label, url in pages:
        response = client.get(url)
        assert response.status_code == expected(label), (label, response.status_code)
        raw = response.content.decode()
        raws.append(raw)
        texts.append(page_text(raw))
    return " ".join(texts), " ".join(raws)


def _check_facts(facts, viewer, text):
    seen = {fact for fact, (pattern, _, _) in facts.items() if re.search(pattern, text)}
    must = {fact for fact, (_, who, _) in facts.items() if viewer in who}
    allowed = {fact for fact, (_, who, may) in facts.items() if viewer in who | may}
    assert must <= seen, f"{viewer} should see {sorted(must - seen)}"
    assert seen <= allowed, f"{viewer} must not see {sorted(seen - allowed)}"


def _keys(raw, keys=KEYS):
    return {k for k in keys if re.search(rf"\b{k}\b", raw)}


def _room_links_by_key(raw):
    """Room links in the pages that name a room by anything but its opaque id (or the
    afterlife by name): a meeting key such as lovers-2 counts the Lover pairs in seat order."""
    return {
        ref for ref in ROOM_LINK.findall(raw)
        if ref != "afterlife" and not re.fullmatch(r"[0-9a-f]{20}", ref)
    }  # fmt: skip


@pytest.fixture
def viewers(moderator, court_users):
    return {"anonymous": None, "outsider": UserFactory(player_name="Zed"), MOD: moderator,
            **court_users}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_page_shows_each_secret_only_to_those_entitled(client, long_thread, viewers, viewer):
    members = {key: who for key, (who, _) in COURT_ROOMS.items()}
    pages = _pages(long_thread, list(COURT_ROOMS), list(COURT_ROOMS))

    def expected(label):
        return _status(
            label, viewer, seated=SEATS, members=members, afterlife=(), desk_rooms=COURT_ROOMS
        )

    text, raw = _visit(client, viewers[viewer], pages, expected)
    assert "Good morning, village." in text  # the public thread is everyone's
    # Day 1's summary post, everyone's: its final count, its end, the night that began.
    assert "Final vote count of Day 1: No votes. Not voting (10)" in text
    assert "No lynch: nobody reached a majority. Night 1 begins." in text
    _check_facts(FACTS, viewer, text)
    assert _keys(raw) == (set(KEYS) if viewer == MOD else set()), viewer
    assert _room_links_by_key(raw) == set(), viewer
    assert not re.search(r"\blovers-\d", raw), viewer  # no meeting key in any page


# --- issue 7: the afterlife, the offstage, a replacement ---------------------------------------
AL = {"ann", "bob"}  # a dead Angel and a dead Demon: the afterlife sees the whole game (W-17)
AL_SEATED = ("ann", "bob", "cat", "dan", "eve", "fay", "hal", "ivy", "jon", "newcomer")
AL_VIEWERS = ("anonymous", "outsider", MOD, "gus (replaced)", *AL_SEATED)
AL_ROOMS = {"coven": {"hal"}, "spies": {"cat"}, "lovers-1": {"fay", "newcomer"}}
AL_DESK_ROOMS = (*AL_ROOMS, "afterlife")
AL_KEYS = ["priest", "judge", "oracle", "dirty_old_bastard", "magician", "cupid", "harlot",
           "wizard", "inquisitor", "survivalist", "elder_witch", "village_spy",
           "village_lover", "holy_villager", "basic_villager"]  # fmt: skip


def _whole(*holders):
    """Who must see a fact: its holders, the afterlife and the moderator's desk."""
    return {*holders, *AL, MOD}


# Every fact here is also the moderator's to see on the desk, and the afterlife's.
AL_FACTS = {
    "Ann is the Priest": (r"\bPriest\b", _whole("ann"), set()),
    "Bob is the Judge": (r"\bJudge\b", _whole("bob"), set()),
    "Cat is the Oracle": (r"\bOracle\b", _whole("cat"), set()),
    "Dan is the Dirty Old Bastard": (r"Dirty Old Bastard", _whole("dan"), set()),
    "Eve is the Magician": (r"\bMagician\b", _whole("eve"), set()),
    "Fay is Cupid": (r"\bCupid\b", _whole("fay"), set()),
    "Gus's seat is the Harlot": (r"\bHarlot\b", _whole("newcomer"), set()),
    "Hal is the Wizard": (r"\bWizard\b", _whole("hal"), set()),
    "Ivy is the Inquisitor": (r"\bInquisitor\b", _whole("ivy"), set()),
    "Jon is the Survivalist": (r"\bSurvivalist\b", _whole("jon"), set()),
    "Elder Witches": (r"\bElder\b", _whole("hal"), set()),
    "Village Spies": (r"\bVillage Spy\b|\bSpies\b", _whole("cat", "hal"), set()),
    "Village Lovers": (r"\bVillage Lovers?\b", _whole("fay", "newcomer"), set()),
    "Holy Villagers": (r"\bHoly\b", _whole("ann", "ivy"), set()),  # Ivy: her card's text
    "Witches at all": (r"\bWitch(es)?\b", _whole("hal"), set()),
    "Cupid's result": (r"The Village Lovers: Fay, Newcomer", _whole("fay"), set()),
    "the Harlot's result": (r"Fay, a Village Lover, was protected", _whole("newcomer"), set()),
    # The night's actions: the afterlife's own, the Coven's, the moderator's causes (W-9).
    "the Demon's veto": (r"votes to veto|vetoed: Cat", _whole(), set()),
    "the Angel's protection": (r"votes to protect", _whole(), set()),
    "the Coven's votes": (r"Coven: .{0,12}votes? to kill", _whole("hal"), set()),
    "the midnight locks": (r"Midnight: the Coven's target", _whole(), set()),
    "causes of death": (r"Kill attempt on", _whole(), set()),
    # The offstage know their own state, but no page of theirs words it like these.
    "Eve's death is fake": (r"fake death|offstage: the Magician", _whole(), {"eve"}),
    "Dan's last act": (r"last act unused", _whole(), {"dan"}),
    # Every private thread, and the afterlife's: never the living's (W-17).
    "the Coven's thread": (re.escape(COVEN_POST), _whole("hal"), set()),
    "the Spies' thread": (re.escape(SPIES_POST), _whole("cat"), set()),
    "the Lovers' thread": (re.escape(LOVERS_POST), _whole("fay", "newcomer"), set()),
    "the afterlife's thread": (re.escape(AFTERLIFE_POST), _whole(), set()),
}


@pytest.fixture
def day_3(moderator):
    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)
    viewers = {
        "anonymous": None,
        "outsider": UserFactory(player_name="Zed"),
        MOD: moderator,
        "gus (replaced)": users["gus"],
        "newcomer": newcomer,
        **{name: users[name] for name in AL_SEATED if name != "newcomer"},
    }
    return game, viewers


@pytest.mark.slow
@pytest.mark.parametrize("viewer", AL_VIEWERS)
def test_afterlife_offstage_and_replaced_see_only_what_they_are_entitled_to(client, day_3, viewer):
    game, viewers = day_3
    pages = _pages(game, [*AL_ROOMS, "juniors", "court"], [*AL_ROOMS, "juniors", "court"])

    def expected(label):
        return _status(
            label, viewer, seated=AL_SEATED, members=AL_ROOMS, afterlife=AL,
            desk_rooms=AL_DESK_ROOMS,
        )  # fmt: skip

    text, raw = _visit(client, viewers[viewer], pages, expected)
    assert "Newcomer replaces Gus." in text  # the public thread is everyone's
    _check_facts(AL_FACTS, viewer, text)
    assert _room_links_by_key(raw) == set(), viewer
    assert not re.search(r"\blovers-\d", raw), viewer  # no meeting key in any page
    keys = _keys(raw, AL_KEYS)
    if viewer == MOD:
        assert keys == set(AL_KEYS)  # the record
    elif viewer not in AL:
        assert keys == set(), viewer


# --- the deal's order: no public page may follow it ---------------------------------------------
# The same cards dealt in other seat orders, or shuffled by other seeds, must give the same
# public pages: the seats, the public thread and the votes are the same, and so is what W-23
# makes public (the characters in play, the count of each player type). A list in the deal's
# order (the engine counts the types seat by seat) would tell everyone the first seat's type.
# Each game is compared with the first as anonymous visitors, outsiders and Ann, whose own
# card is the same in every deal and who knows nothing of the others' on Day 1.
ANN_CARD = CAST[0]
OTHERS = CAST[1:]
SEAT_ORDERS = [  # the other seven cards, in the order dealt to Bob, Cat, … Hal
    OTHERS,
    OTHERS[::-1],
    OTHERS[3:] + OTHERS[:3],
    [OTHERS[6], OTHERS[4], OTHERS[2], OTHERS[0], OTHERS[1], OTHERS[3], OTHERS[5]],
]
SEEDS = (1, 2, 3, 5, 8)


def _dealt(cards):
    """The named cast's names in their seat order, holding `cards` (character, type)."""
    return [(name, c, t) for (name, _, _), (c, t) in zip(CAST, cards, strict=True)]


def _day_1_in_public(game, users):
    """The same public doings in every game: two votes for Bob, one for Dan, a post."""
    for voter, target in (("dan", "bob"), ("eve", "bob"), ("cat", "dan")):
        services.vote_cast(game=game, user=users[voter], target=target)
    services.post_create(game=game, user=users["ann"], body="Who dealt these cards?")
    return game


def _seen(client, user, game, *, role=False):
    """The pages `user` reads of `game`, with what differs between any two games (the
    game's id, the CSRF token) made the same."""
    detail = reverse("game_detail", args=[game.pk])
    urls = [detail, f"{detail}?page=1", f"{detail}?only=ann", f"{detail}?only=hal"]
    if role:
        urls.append(reverse("game_role", args=[game.pk]))
    client.logout()
    if user is not None:
        client.force_login(user)
    pages = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode().replace(f"/games/{game.pk}/", "/games/N/")
        html = re.sub(r'class="fingerprint">[0-9a-f]{64}', "", html)  # salted: docs/fair-deal.md
        pages.append(re.sub(r'value="[A-Za-z0-9]{64}"', 'value=""', html))
    return pages


def _assert_same(first, other, what):
    for a, b in zip(first, other, strict=True):
        if a != b:  # the visible text first: the clearer message
            assert page_text(a) == page_text(b), what
            assert a == b, what


@pytest.mark.slow
def test_public_pages_do_not_follow_the_seat_order_of_the_deal(
    client, traveller, moderator, cast_users
):
    games = [
        _day_1_in_public(
            make_game(moderator, cast_users, cast=_dealt([ANN_CARD[1:], *[c[1:] for c in order]])),
            cast_users,
        )
        for order in SEAT_ORDERS
    ]
    # The deals differ where it matters: the first seats hold other types.
    assert len({g.seats.get(name="bob").assignment.type for g in games}) > 1
    outsider = UserFactory(player_name="Zed")
    first = games[0]
    for user, role in ((None, False), (outsider, False), (cast_users["ann"], True)):
        seen = _seen(client, user, first, role=role)
        for i, game in enumerate(games[1:], 1):
            _assert_same(seen, _seen(client, user, game, role=role), (user, SEAT_ORDERS[i]))
    # The types in the order of their keys, whatever the database keeps of the event's.
    text = page_text(_seen(client, None, first)[0])
    assert (
        "Player types: 2 Basic Villagers, 1 Elder Witch, 1 Holy Villager, 1 Junior Witch, "
        "2 Village Lovers, 1 Village Spy." in text
    )


@pytest.mark.slow
def test_public_pages_do_not_follow_the_seed_that_shuffles_the_deal(
    client, traveller, moderator, cast_users
):
    games = []
    for seed in SEEDS:
        game = services.game_create(
            host=moderator,
            ruleset="witchhunt",
            title="The named cast",
            seats_count=len(CAST),
            seed=seed,
            deal={"mode": "explicit", "cards": [{"character": c, "type": t} for _, c, t in CAST]},
        )
        for name, _, _ in CAST:
            services.game_join(game=game, user=cast_users[name.lower()])
        games.append(_day_1_in_public(services.game_start(game=game, by=moderator), cast_users))
    assert len({g.seats.get(name="ann").assignment.type for g in games}) > 1  # shuffled
    outsider = UserFactory(player_name="Zed")
    for user in (None, outsider):
        seen = _seen(client, user, games[0])
        for seed, game in zip(SEEDS[1:], games[1:], strict=True):
            _assert_same(seen, _seen(client, user, game), (user, seed))
