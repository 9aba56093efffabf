"""The leak matrix: every page of a game in progress, as every kind of viewer, must show
each secret exactly to those the rulings entitle (and each entitled viewer must see it,
so that the test can fail).

The game is conftest's `court_game` on Day 2, with the characters in play kept secret
(public_setup off), so every card name is a secret of its holder.
"""

import html as html_lib
import re

import pytest
from django.urls import reverse

from games.models import Post
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MOD = "mod"
SEATS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
VIEWERS = ("anonymous", "outsider", MOD, *SEATS)

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
}
# The record holds every card by its key: only the moderator may download it while the game
# runs. Keys are searched in the raw responses: no page shows them, so any one found is a
# card that leaked (a seat's card rendered raw, an option value, an attribute).
KEYS = ["king", "judge", "oracle", "gravedigger", "queen", "cupid", "harlot", "wizard",
        "inquisitor", "survivalist", "elder_witch", "junior_witch", "village_spy",
        "village_lover", "holy_villager", "basic_villager"]  # fmt: skip


def _text(body):
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text).replace("’", "'")


@pytest.fixture
def long_thread(court_game, court_users):
    """Sixty more posts, so that the thread has a second page, and a reply."""
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
    return court_game


def _pages(game):
    """(label, url, whether every viewer gets it) for every page and partial of a game."""
    detail = reverse("game_detail", args=[game.pk])
    return [
        ("lobby", reverse("game_list")),
        ("game page", detail),
        ("game page 2", f"{detail}?page=2"),
        ("one player's posts", f"{detail}?only=ann"),
        ("another player's posts", f"{detail}?only=bob"),
        ("a reply", f"{detail}?reply=1"),
        ("a quote", f"{detail}?page=2&quote=60"),
        ("role page", reverse("game_role", args=[game.pk])),
        ("reveal", reverse("game_reveal", args=[game.pk])),
        ("record", reverse("game_record", args=[game.pk])),
        ("admin: games", reverse("admin:games_game_changelist")),
        ("admin: a game", reverse("admin:games_game_change", args=[game.pk])),
        ("admin: assignments", reverse("admin:games_assignment_changelist")),
        ("admin: events", reverse("admin:games_gameevent_changelist")),
        ("admin: inputs", reverse("admin:games_gameinput_changelist")),
    ]


def _expected_status(label, viewer):
    if label.startswith("admin"):
        return 302  # nobody in the matrix is staff: sent to sign in
    if label == "role page":
        return 200 if viewer in SEATS else 404
    if label == "reveal":
        return 404  # not before the end (W-71)
    if label == "record":
        return 200 if viewer == MOD else 404
    return 200


@pytest.fixture
def viewers(moderator, court_users):
    return {"anonymous": None, "outsider": UserFactory(player_name="Zed"), MOD: moderator,
            **court_users}  # fmt: skip


@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_page_shows_each_secret_only_to_those_entitled(client, long_thread, viewers, viewer):
    user = viewers[viewer]
    if user is not None:
        client.force_login(user)
    texts, raws = [], []
    for label, url in _pages(long_thread):
        response = client.get(url)
        assert response.status_code == _expected_status(label, viewer), (label, viewer)
        raw = response.content.decode()
        raws.append(raw)
        texts.append(_text(raw))
    text, raw = " ".join(texts), " ".join(raws)
    assert "Good morning, village." in text  # the public thread is everyone's

    seen = {fact for fact, (pattern, _, _) in FACTS.items() if re.search(pattern, text)}
    must = {fact for fact, (_, who, _) in FACTS.items() if viewer in who}
    allowed = {fact for fact, (_, who, may) in FACTS.items() if viewer in who | may}
    assert must <= seen, f"{viewer} should see {sorted(must - seen)}"
    assert seen <= allowed, f"{viewer} must not see {sorted(seen - allowed)}"

    keys = {k for k in KEYS if re.search(rf"\b{k}\b", raw)}
    assert keys == (set(KEYS) if viewer == MOD else set()), viewer


def test_junior_does_not_see_the_coven_before_joining(client, court_game, court_users):
    """W-25, W-26: Hal (a Junior, not joined) sees no Coven vote, at night either."""
    from games import services

    services.phase_advance(game=court_game, by=court_game.host)  # Night 2
    services.action_submit(game=court_game, user=court_users["bob"], action="coven", target="dan")
    client.force_login(court_users["hal"])
    text = _text(client.get(reverse("game_role", args=[court_game.pk])).content.decode())
    assert "votes to kill" not in text and "Coven vote" not in text
    client.force_login(court_users["bob"])
    text = _text(client.get(reverse("game_role", args=[court_game.pk])).content.decode())
    assert "Coven: You vote to kill Dan." in text and "Coven vote: Dan" in text
