"""Issue 16's replacements (W-72): a seat marked (the player asks, the moderator marks it)
is announced and offered to the volunteers on the list; the first to accept takes it as a
moderator's replacement does, the other offers close; the moderator can still replace by
hand. Refusals are in a player's words and change nothing."""

import threading

import pytest
from django.core import mail
from django.db import connection, connections
from django.urls import reverse

from games import services, tasks
from games.community.services import replacements
from games.engine import GameRuleError
from games.models import (
    GameInput,
    Notification,
    Post,
    Prod,
    ReplacementOffer,
    ReplacementVolunteer,
    Seat,
    SeatTenure,
)
from games.selectors.desk import moderator_log
from tests.factories import UserFactory
from tests.games import said
from tests.games.conftest import CAST, make_game, users_for
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db

# Bob's seat: the Judge, an Elder Witch. None of this may reach a volunteer or the thread.
BOB_CARDS = ("judge", "elder", "coven", "the witches")


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (the worker's code path)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


@pytest.fixture
def volunteers(cast_game):
    """Vic on the list for this game, Wes for any game, Xan for another game only."""
    vic, wes, xan = (UserFactory(player_name=n) for n in ("Vic", "Wes", "Xan"))
    replacements.volunteer_join(user=vic, game=cast_game, hours_per_week=10, note="evenings")
    replacements.volunteer_join(user=wes, hours_per_week=3)
    others = {name.lower(): UserFactory(player_name=f"{name}2") for name, _, _ in CAST}
    other = make_game(UserFactory(player_name="Host2"), others, start=False)
    replacements.volunteer_join(user=xan, game=other, hours_per_week=5)
    return {"vic": vic, "wes": wes, "xan": xan}


def _fresh(game):
    game.refresh_from_db()
    return game


def _seat(game, name="bob"):
    return Seat.objects.select_related("user").get(game=game, name=name)


def _public_texts(game):
    posts = Post.objects.filter(game=game, thread="public")
    return [(said.text(p), said.html(p)) for p in posts]


def _assert_no_cards(*texts):
    for text in texts:
        low = text.lower()
        assert not [w for w in BOB_CARDS if w in low], text


# --- marking ---------------------------------------------------------------------------------
def test_a_player_asking_to_leave_is_announced_and_offered_to_the_volunteers_in_order(
    cast_game, cast_users, moderator, volunteers, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        replacements.leave_ask(game=cast_game, user=cast_users["bob"], note="Moving house")
    seat = _seat(cast_game)
    assert seat.replacement_wanted_at is not None and seat.replacement_reason == "asked"
    post = Post.objects.filter(game=cast_game).order_by("-number").first()
    assert post.kind == Post.Kind.SYSTEM and said.text(post) == "A replacement is wanted for Bob."
    _assert_no_cards(said.text(post), said.html(post))
    # The game's own list first, then the list for any game; never another game's list.
    offers = list(ReplacementOffer.objects.filter(seat=seat).order_by("pk"))
    assert [o.user.player_name for o in offers] == ["Vic", "Wes"]
    assert all(o.status == "open" for o in offers)
    told = Notification.objects.filter(game=cast_game, kind=Notification.Kind.REPLACEMENT)
    assert sorted(n.user.player_name for n in told) == ["Mod", "Vic", "Wes"]
    assert told.get(user=moderator).text == "Bob asked to be replaced: “Moving house”"
    for n in told.exclude(user=moderator):
        _assert_no_cards(n.text)
        assert "Moving house" not in n.text  # the reason is the moderator's alone
    # One email to each volunteer, to their own address, with the one-click page's link.
    assert sorted(m.to[0] for m in mail.outbox) == ["vic@example.com", "wes@example.com"]
    for message in mail.outbox:
        offer = next(o for o in offers if o.user.email == message.to[0])
        assert reverse("replacement_offer", args=[offer.pk]) in message.body
        assert "List-Unsubscribe" in message.extra_headers
        _assert_no_cards(message.subject, message.body, message.alternatives[0][0])


def test_the_offer_email_respects_the_volunteers_preference(
    cast_game, cast_users, volunteers, django_capture_on_commit_callbacks
):
    volunteers["wes"].email_phase_changes = False
    volunteers["wes"].save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    assert [m.to for m in mail.outbox] == [["vic@example.com"]]
    # In-site, Wes still has the offer.
    assert Notification.objects.filter(user=volunteers["wes"], kind="replacement").exists()


def test_players_and_the_moderator_are_never_offered_a_seat(cast_game, cast_users, moderator):
    replacements.volunteer_join(user=UserFactory(player_name="Vic"), hours_per_week=2)
    # Ann, seated, joined the any-game list before this game; the moderator too.
    ReplacementVolunteer.objects.create(user=cast_users["ann"])
    ReplacementVolunteer.objects.create(user=moderator)
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    offered = ReplacementOffer.objects.values_list("user__player_name", flat=True)
    assert list(offered) == ["Vic"]


def test_the_moderator_marks_and_unmarks_a_seat_as_logged_acts(cast_game, moderator, volunteers):
    replacements.replacement_mark(game=cast_game, seat_name="cat", by=moderator)
    seat = _seat(cast_game, "cat")
    assert seat.replacement_reason == "moderator"
    assert ReplacementOffer.objects.filter(seat=seat, status="open").count() == 2
    replacements.replacement_unmark(game=cast_game, seat_name="cat", by=moderator)
    seat.refresh_from_db()
    assert seat.replacement_wanted_at is None and seat.replacement_reason == ""
    assert not ReplacementOffer.objects.filter(seat=seat, status="open").exists()
    log = [said.text(a.post) for a in moderator_log(cast_game, {}) if a.post]
    assert log == [
        "A replacement is wanted for Cat.",
        "Cat stays: no replacement is wanted any more.",
    ]


@pytest.mark.parametrize(
    ("act", "words"),
    [
        (lambda g, u, m: replacements.replacement_mark(game=g, seat_name="ann", by=u["bob"]),
         "only the game's moderator can ask for a replacement"),
        (lambda g, u, m: replacements.replacement_mark(game=g, seat_name="zed", by=m),
         "there is no player named zed"),
        (lambda g, u, m: replacements.replacement_unmark(game=g, seat_name="ann", by=m),
         "no replacement is wanted for Ann"),
        (lambda g, u, m: replacements.leave_ask(game=g, user=u["ann"], note="x" * 201),
         "keep the reason to 200 characters"),
    ],
)  # fmt: skip
def test_refusals_change_nothing(cast_game, cast_users, moderator, act, words):
    before = (_public_texts(cast_game), list(Seat.objects.values_list("replacement_wanted_at")))
    with pytest.raises(GameRuleError) as refusal:
        act(cast_game, cast_users, moderator)
    assert str(refusal.value) == words
    assert before == (
        _public_texts(cast_game),
        list(Seat.objects.values_list("replacement_wanted_at")),
    )


def test_a_seat_already_wanted_or_out_of_the_game_cannot_be_marked(
    cast_game, cast_users, moderator
):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    with pytest.raises(GameRuleError, match="already wanted for your seat"):
        replacements.leave_ask(game=_fresh(cast_game), user=cast_users["bob"])
    with pytest.raises(GameRuleError, match="already wanted for Bob"):
        replacements.replacement_mark(game=cast_game, seat_name="bob", by=moderator)
    services.player_remove(game=cast_game, seat_name="dan", by=moderator)
    with pytest.raises(GameRuleError, match="Dan is out of the game"):
        replacements.replacement_mark(game=_fresh(cast_game), seat_name="dan", by=moderator)
    with pytest.raises(GameRuleError, match="you are out of the game"):
        replacements.leave_ask(game=cast_game, user=cast_users["dan"])


def _lynch(game, users, target, voters):
    for voter in voters:
        services.vote_cast(game=_fresh(game), user=users[voter], target=target)
    assert _fresh(game).is_night  # a majority ends the day (W-4)


def test_a_dead_witchhunt_seat_plays_on_and_can_be_handed_over(cast_game, cast_users, moderator):
    """The dead play on as Angels and Demons: their seat can be wanted like any other."""
    _lynch(cast_game, cast_users, "dan", ["ann", "bob", "cat", "eve", "fay"])
    replacements.replacement_mark(game=_fresh(cast_game), seat_name="dan", by=moderator)
    assert _seat(cast_game, "dan").replacement_wanted_at is not None


def test_a_dead_werewolf_seat_is_not_handed_over(moderator):
    cast = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "villager", ""),
            ("Dan", "villager", ""), ("Eve", "villager", "")]  # fmt: skip
    users = users_for(cast)
    game = make_game(moderator, users, cast=cast, ruleset="werewolf")
    _lynch(game, users, "dan", ["ann", "bob", "cat"])
    with pytest.raises(GameRuleError, match="Dan is out of the game"):
        replacements.replacement_mark(game=_fresh(game), seat_name="dan", by=moderator)
    with pytest.raises(GameRuleError, match="you are out of the game"):
        replacements.leave_ask(game=_fresh(game), user=users["dan"])


# --- taking the seat -------------------------------------------------------------------------
def test_the_first_volunteer_to_accept_takes_the_seat_and_the_other_offers_close(
    cast_game, cast_users, volunteers, eager_tasks, django_capture_on_commit_callbacks
):
    bob = cast_users["bob"]
    replacements.leave_ask(game=cast_game, user=bob)
    seat = _seat(cast_game)
    vic_offer = ReplacementOffer.objects.get(seat=seat, user=volunteers["vic"])
    wes_offer = ReplacementOffer.objects.get(seat=seat, user=volunteers["wes"])
    inputs = GameInput.objects.filter(game=cast_game).count()
    tasks.game_role_emails(cast_game.pk)  # the start's role emails, as the worker sent them
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        replacements.offer_accept(offer_id=wes_offer.pk, user=volunteers["wes"])
    seat.refresh_from_db()
    assert seat.user == volunteers["wes"] and seat.replacement_wanted_at is None
    last = GameInput.objects.filter(game=cast_game).order_by("-index").first()
    assert GameInput.objects.filter(game=cast_game).count() == inputs + 1
    assert last.step == {"moderator": "replace", "player": "bob"}
    post = Post.objects.filter(game=cast_game).order_by("-number").first()
    assert said.text(post) == "Wes replaces Bob." and post.kind == Post.Kind.SYSTEM
    vic_offer.refresh_from_db()
    wes_offer.refresh_from_db()
    assert (wes_offer.status, vic_offer.status) == ("accepted", "closed")
    tenures = list(SeatTenure.objects.filter(seat=seat).order_by("pk"))
    assert [(t.user, t.left, t.replacing, t.ended_at is None) for t in tenures] == [
        (bob, "replaced", False, False),
        (volunteers["wes"], "", True, True),
    ]
    # The cards go to the newcomer alone, as for any replacement.
    assert [m.to for m in mail.outbox] == [[volunteers["wes"].email]]
    assert "Judge" in mail.outbox[0].body
    # Vic comes second: refused in words, nothing changes.
    with pytest.raises(GameRuleError, match="this seat has been taken or is no longer wanted"):
        replacements.offer_accept(offer_id=vic_offer.pk, user=volunteers["vic"])
    assert _seat(cast_game).user == volunteers["wes"]
    # The replaced player can no longer act for the seat.
    with pytest.raises(GameRuleError, match="you are not playing in this game"):
        services.post_create(game=_fresh(cast_game), user=bob, body="Still me.")


def test_nobody_accepts_an_offer_that_is_not_theirs(cast_game, cast_users, volunteers):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    offer = ReplacementOffer.objects.get(user=volunteers["vic"])
    for intruder in (volunteers["xan"], cast_users["ann"], UserFactory(player_name="Zed")):
        with pytest.raises(GameRuleError, match="there is no such offer"):
            replacements.offer_accept(offer_id=offer.pk, user=intruder)
    assert _seat(cast_game).user == cast_users["bob"]
    offer.refresh_from_db()
    assert offer.status == "open"


def test_a_declined_seat_is_not_offered_again(cast_game, cast_users, moderator, volunteers):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    offer = ReplacementOffer.objects.get(user=volunteers["vic"])
    replacements.offer_decline(offer_id=offer.pk, user=volunteers["vic"])
    with pytest.raises(GameRuleError, match="you have already declined this offer"):
        replacements.offer_accept(offer_id=offer.pk, user=volunteers["vic"])
    replacements.replacement_unmark(game=cast_game, seat_name="bob", by=moderator)
    replacements.replacement_mark(game=cast_game, seat_name="bob", by=moderator)
    open_now = ReplacementOffer.objects.filter(status="open").values_list("user__player_name")
    assert list(open_now) == [("Wes",)]


def test_the_moderators_replacement_by_hand_closes_the_open_offers(
    cast_game, cast_users, moderator, volunteers
):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    newby = UserFactory(player_name="Newby")
    services.player_replace(game=cast_game, seat_name="bob", new_user=newby, by=moderator)
    assert not ReplacementOffer.objects.filter(status="open").exists()
    seat = _seat(cast_game)
    assert seat.user == newby and seat.replacement_wanted_at is None
    post = Post.objects.filter(game=cast_game).order_by("-number").first()
    assert (post.kind, post.author, said.text(post)) == (
        "moderator",
        moderator,
        "Newby replaces Bob.",
    )
    with pytest.raises(GameRuleError, match="this seat has been taken"):
        replacements.offer_accept(
            offer_id=ReplacementOffer.objects.get(user=volunteers["vic"]).pk, user=volunteers["vic"]
        )


# --- the list ----------------------------------------------------------------------------------
def test_volunteering_for_a_wanted_seat_offers_it_at_once(cast_game, cast_users, moderator):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    yan = UserFactory(player_name="Yan")
    offer = replacements.seat_volunteer(game=cast_game, seat_name="bob", user=yan)
    assert (offer.user, offer.status) == (yan, "open")
    assert ReplacementVolunteer.objects.filter(user=yan, game=cast_game).exists()
    assert replacements.seat_volunteer(game=cast_game, seat_name="bob", user=yan) == offer
    with pytest.raises(GameRuleError, match="you already have a seat in this game"):
        replacements.seat_volunteer(game=cast_game, seat_name="bob", user=cast_users["ann"])
    with pytest.raises(GameRuleError, match="you moderate this game"):
        replacements.seat_volunteer(game=cast_game, seat_name="bob", user=moderator)
    with pytest.raises(GameRuleError, match="no longer wanted"):
        replacements.seat_volunteer(game=cast_game, seat_name="cat", user=yan)


def test_joining_and_leaving_the_list(cast_game):
    zed = UserFactory(player_name="Zed")
    with pytest.raises(GameRuleError, match="between 1 and 168 hours"):
        replacements.volunteer_join(user=zed, hours_per_week=0)
    replacements.volunteer_join(user=zed, hours_per_week=4, note="  weekends   only ")
    replacements.volunteer_join(user=zed, hours_per_week=6)  # again: changes the hours
    row = ReplacementVolunteer.objects.get(user=zed)
    assert (row.game, row.hours_per_week, row.note) == (None, 6, "")
    replacements.volunteer_leave(user=zed)
    assert not ReplacementVolunteer.objects.filter(user=zed).exists()
    with pytest.raises(GameRuleError, match="you are not on that list"):
        replacements.volunteer_leave(user=zed)


# --- the pages ---------------------------------------------------------------------------------
def test_the_offer_page_shows_the_game_and_phase_and_takes_the_seat(
    client, cast_game, cast_users, volunteers
):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    offer = ReplacementOffer.objects.get(user=volunteers["vic"])
    url = reverse("replacement_offer", args=[offer.pk])
    for other in (volunteers["wes"], cast_users["ann"]):
        client.force_login(other)
        assert client.get(url).status_code == 404
        answer = reverse("replacement_offer_answer", args=[offer.pk])
        client.post(answer, {"answer": "take"})
        assert _seat(cast_game).user == cast_users["bob"]
    client.force_login(volunteers["vic"])
    page = client.get(url).content.decode()
    assert "Bob’s seat in The named cast" in page and "Day 1" in page and "Take the seat" in page
    _assert_no_cards(page.split("<main", 1)[1])
    response = client.post(reverse("replacement_offer_answer", args=[offer.pk]), {"answer": "take"})
    assert response.status_code == 302 and response["Location"] == f"/games/{cast_game.pk}/role/"
    assert _seat(cast_game).user == volunteers["vic"]


def test_the_list_page_shows_wanted_seats_and_volunteers_for_one(client, cast_game, cast_users):
    replacements.leave_ask(game=cast_game, user=cast_users["bob"])
    yan = UserFactory(player_name="Yan")
    client.force_login(yan)
    page = client.get(reverse("replacement_list")).content.decode()
    assert "Volunteer for this seat" in page and "The named cast" in page
    _assert_no_cards(page.split("<main", 1)[1])
    response = client.post(reverse("replacement_volunteer", args=[cast_game.pk]), {"seat": "bob"})
    offer = ReplacementOffer.objects.get(user=yan)
    assert response["Location"] == reverse("replacement_offer", args=[offer.pk])
    client.post(reverse("replacement_join"), {"game": "", "hours": "8", "note": "mornings"})
    assert ReplacementVolunteer.objects.filter(user=yan, game=None, hours_per_week=8).exists()


def test_the_role_page_asks_to_be_replaced_after_a_confirmation(client, cast_game, cast_users):
    client.force_login(cast_users["bob"])
    role = client.get(reverse("game_role", args=[cast_game.pk])).content.decode()
    ask = reverse("game_leave_ask", args=[cast_game.pk])
    assert ask in role
    assert "Your reason, for the moderator" in client.get(ask).content.decode()
    assert _seat(cast_game).replacement_wanted_at is None  # the GET asks, changes nothing
    client.post(ask, {"note": "Sorry"})
    assert _seat(cast_game).replacement_reason == "asked"
    client.force_login(cast_users["ann"])  # another player cannot ask for Bob
    client.post(ask, {"note": ""})
    assert _seat(cast_game, "ann").replacement_wanted_at is not None  # only for herself


def test_the_desk_marks_a_seat_and_shows_the_waiting_seat_with_its_offers(
    client, cast_game, cast_users, moderator, volunteers
):
    client.force_login(moderator)
    desk = reverse("game_desk", args=[cast_game.pk])
    client.post(
        reverse("game_desk_replacement", args=[cast_game.pk]), {"seat": "cat", "mark": "yes"}
    )
    assert _seat(cast_game, "cat").replacement_reason == "moderator"
    page = client.get(desk).content.decode()
    assert "Keep the player" in page and "Vic" in page and "evenings" in page
    # A player, or a stranger, cannot mark or unmark anything: the desk is a 404 to them.
    client.force_login(cast_users["ann"])
    response = client.post(reverse("game_desk_replacement", args=[cast_game.pk]), {"seat": "cat"})
    assert response.status_code == 404
    assert _seat(cast_game, "cat").replacement_wanted_at is not None
    assert client.get(desk).status_code == 404


# --- the admin ---------------------------------------------------------------------------------
def test_the_admin_lists_the_rows_and_marks_seats_through_the_service(
    client, cast_game, cast_users, moderator, volunteers
):
    root = UserFactory(player_name="Root", is_staff=True, is_superuser=True)
    client.force_login(root)
    prod = Prod.objects.create(seat=_seat(cast_game, "cat"), user=cast_users["cat"], number=1)
    for model in ("replacementvolunteer", "replacementoffer", "prod"):
        assert client.get(reverse(f"admin:games_{model}_changelist")).status_code == 200
    client.post(
        reverse("admin:games_prod_changelist"),
        {"action": "mark_for_replacement", "_selected_action": [prod.pk]},
    )
    seat = _seat(cast_game, "cat")
    assert seat.replacement_reason == "moderator"
    # Logged as the act of whoever did it, like the desk's.
    (act,) = [a for a in moderator_log(cast_game, {}) if a.post]
    assert (act.by, said.text(act.post)) == ("Root", "A replacement is wanted for Cat.")
    assert ReplacementOffer.objects.filter(seat=seat, status="open").count() == 2
    client.post(
        reverse("admin:games_replacementvolunteer_changelist"),
        {
            "action": "volunteers_remove",
            "_selected_action": [ReplacementVolunteer.objects.get(user=volunteers["vic"]).pk],
        },
    )
    assert not ReplacementVolunteer.objects.filter(user=volunteers["vic"]).exists()
    assert ReplacementOffer.objects.get(user=volunteers["vic"]).status == "closed"


# --- two volunteers at once (PostgreSQL row locks; SQLite serialises writers) -----------------
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db(transaction=True)
def test_two_volunteers_accepting_together_one_takes_the_seat(moderator, cast_users):
    game = make_game(moderator, cast_users)
    vic, wes = UserFactory(player_name="Vic"), UserFactory(player_name="Wes")
    for user in (vic, wes):
        replacements.volunteer_join(user=user, game=game, hours_per_week=4)
    replacements.leave_ask(game=game, user=cast_users["bob"])
    offers = {o.user_id: o.pk for o in ReplacementOffer.objects.all()}
    barrier = threading.Barrier(2)
    outcomes = {}

    def accept(user):
        try:
            barrier.wait(timeout=10)
            replacements.offer_accept(offer_id=offers[user.pk], user=user)
            outcomes[user.player_name] = "took it"
        except GameRuleError as e:
            outcomes[user.player_name] = str(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept, args=(u,)) for u in (vic, wes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes.values()) == [
        "this seat has been taken or is no longer wanted",
        "took it",
    ]
    winner = next(name for name, said in outcomes.items() if said == "took it")
    assert _seat(game).user.player_name == winner
    assert GameInput.objects.filter(game=game, step__moderator="replace").count() == 1
    assert list(ReplacementOffer.objects.values_list("status", flat=True).order_by("status")) == [
        "accepted",
        "closed",
    ]
