"""Read state and "since you last read" (issue 15): marks that only move forward, "N new"
per thread and per game in a constant number of queries, landing on the first unread
post, "Mark all read", and the since page's words (vote moves with their wagons, deaths,
what the seat still has to do), never counting a thread the viewer may not read."""

import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import GameVisit, Post, ReadMark
from games.reading.selectors.news import ThreadNews, landing, lobby_news, thread_news
from games.reading.selectors.readable import readable
from games.reading.selectors.since import since_page
from games.reading.services.read_state import (
    VISIT_TOUCH,
    game_visit_record,
    read_mark_forward,
    read_marks_all,
)
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text, room_url
from tests.games.conftest import CAST, make_game

pytestmark = pytest.mark.django_db


def _posts(game, n, thread="public"):
    """n player posts after the thread's last, by the game's seats in turn."""
    seats = list(game.seats.select_related("user").order_by("position"))
    first = Post.objects.filter(game=game, thread=thread).count()
    Post.objects.bulk_create(
        Post(
            game=game,
            thread=thread,
            number=first + i,
            kind="player",
            seat=seats[i % len(seats)],
            author=seats[i % len(seats)].user,
            body=f"> quoted\n\nLine {first + i} of {thread}\nsecond line",
            body_html=f"<p>Line {first + i}</p>",
            phase=game.phase,
        )
        for i in range(1, n + 1)
    )


def _mark(user, game, thread="public"):
    return (
        ReadMark.objects.filter(user=user, game=game, thread=thread)
        .values_list("last_number", flat=True)
        .first()
    )


# --- the selectors and services alone -----------------------------------------------------------
def test_news_and_landing_follow_the_mark():
    assert ThreadNews("public", 80, 50).new == 30
    assert ThreadNews("public", 80, 50).first_unread == 51
    assert ThreadNews("public", 80, 80).new == 0
    assert ThreadNews("public", 80, 80).first_unread is None
    assert landing(ThreadNews("public", 80, 0)) is None  # never read: page 1, from the top
    assert landing(ThreadNews("public", 80, 50)) == (2, 51)  # the first unread post's page
    assert landing(ThreadNews("public", 80, 80)) == (2, 80)  # all read: the latest post
    assert landing(None) is None


def test_a_mark_only_moves_forward_in_one_statement(cast_game, cast_users):
    ann = cast_users["ann"]
    with CaptureQueriesContext(connection) as queries:
        assert read_mark_forward(user=ann, game=cast_game, thread="public", number=40)
    assert len(queries) == 1
    assert _mark(ann, cast_game) == 40
    read_mark_forward(user=ann, game=cast_game, thread="public", number=12)  # never back
    assert _mark(ann, cast_game) == 40
    read_mark_forward(user=ann, game=cast_game, thread="public", number=55)
    assert _mark(ann, cast_game) == 55
    with CaptureQueriesContext(connection) as queries:  # known to change nothing: no query
        assert not read_mark_forward(user=ann, game=cast_game, thread="public", number=30, known=55)
    assert len(queries) == 0
    assert ReadMark.objects.filter(user=ann).count() == 1


def test_thread_news_is_one_query_for_every_thread(court_game, court_users):
    _posts(court_game, 120)
    services.room_post(game=court_game, user=court_users["bob"], room="coven", body="hi")
    bob = court_users["bob"]
    read_mark_forward(user=bob, game=court_game, thread="public", number=100)
    with CaptureQueriesContext(connection) as queries:
        news = thread_news(court_game, bob)
    assert len(queries) == 1
    last = Post.objects.filter(game=court_game, thread="public").count()
    assert news["public"].last == last and news["public"].new == last - 100
    assert news["coven"].new == 1


def test_who_reads_which_threads(court_game, court_users, moderator):
    outsider = UserFactory()
    assert readable(court_game, outsider).keys == {"public"}
    bob = readable(court_game, court_users["bob"])
    assert bob.keys == {"public", "coven"} and not bob.whole_game
    ann = readable(court_game, court_users["ann"])
    assert ann.keys == {"public", "court"}
    mod = readable(court_game, moderator)
    assert mod.keys is None and mod.whole_game and mod.moderator


def test_mark_all_read_marks_only_what_the_viewer_may_read(court_game, court_users):
    services.room_post(game=court_game, user=court_users["bob"], room="coven", body="hi")
    services.room_post(game=court_game, user=court_users["ann"], room="court", body="hi")
    ann = court_users["ann"]
    assert read_marks_all(user=ann, game=court_game) == 2  # the public thread and the Court
    assert _mark(ann, court_game, "court") == 1
    assert _mark(ann, court_game, "coven") is None  # never a thread she may not read
    assert read_marks_all(user=ann, game=court_game) == 0  # nothing new: nothing written


def test_a_visit_moves_forward_in_one_statement(cast_game, cast_users):
    ann = cast_users["ann"]
    assert thread_news(cast_game, ann, visit=True).visit == -1  # no visit yet
    with CaptureQueriesContext(connection) as queries:
        game_visit_record(user=ann, game=cast_game)
    assert len(queries) == 1
    first = GameVisit.objects.get(user=ann, game=cast_game).event_index
    assert first == cast_game.events.order_by("-index").first().index
    assert thread_news(cast_game, ann, visit=True).visit == first
    services.vote_cast(game=cast_game, user=cast_users["bob"], target="dan")
    with CaptureQueriesContext(connection) as queries:
        game_visit_record(user=ann, game=cast_game)
    assert len(queries) == 1
    later = GameVisit.objects.get(user=ann, game=cast_game).event_index
    assert later > first
    game_visit_record(user=ann, game=cast_game, upto=first)  # never back
    assert GameVisit.objects.get(user=ann, game=cast_game).event_index == later


def test_a_visit_that_shows_nothing_new_writes_at_most_once_a_minute(cast_game, cast_users):
    ann = cast_users["ann"]
    visits = GameVisit.objects.filter(user=ann, game=cast_game)
    game_visit_record(user=ann, game=cast_game)
    seen = visits.get().visited_at
    game_visit_record(user=ann, game=cast_game)  # the page read again: nothing new
    assert visits.get().visited_at == seen
    visits.update(visited_at=seen - VISIT_TOUCH - timedelta(seconds=1))
    game_visit_record(user=ann, game=cast_game)  # a minute on: "last seen" moves
    assert visits.get().visited_at > seen
    seen = visits.get().visited_at
    event = visits.get().event_index
    services.vote_cast(game=cast_game, user=cast_users["bob"], target="dan")
    game_visit_record(user=ann, game=cast_game)  # something new: at once
    assert visits.get().event_index > event and visits.get().visited_at > seen


# --- the pages ---------------------------------------------------------------------------------
def test_coming_back_lands_on_the_first_unread_post(client, cast_game, cast_users):
    _posts(cast_game, 120)
    ann = cast_users["ann"]
    client.force_login(ann)
    detail = reverse("game_detail", args=[cast_game.pk])
    # Never read: page 1 from the top, as for anyone; reading it moves the mark.
    response = client.get(detail)
    assert response.status_code == 200
    assert _mark(ann, cast_game) == 50
    assert "You have not read this thread before." in page_text(response.content.decode())
    # Back later: the thread's page of post 51, at its anchor.
    response = client.get(detail)
    assert response.status_code == 302
    assert response["Location"] == f"{detail}?page=2#p51"
    response = client.get(f"{detail}?page=2")
    text = page_text(response.content.decode())
    last = Post.objects.filter(game=cast_game).count()
    assert f"{last - 50} new since you last read, from #51" in text
    assert "Jump to latest" in text and "Mark all read" in text
    assert _mark(ann, cast_game) == 100
    # "Mark all read", then back: the latest post, nothing new.
    response = client.post(
        reverse("game_read", args=[cast_game.pk]),
        {"thread": "public", "next": f"{detail}?page=2"},
    )
    assert response.status_code == 302 and response["Location"] == f"{detail}?page=2"
    assert _mark(ann, cast_game) == last
    # Its message shows at the top of the page it goes back to: no landing elsewhere then.
    text = page_text(client.get(detail).content.decode())
    assert "The thread is marked read." in text
    response = client.get(detail)
    assert response["Location"] == f"{detail}?page=3#p{last}"
    assert "No new posts since you last read." in page_text(
        client.get(f"{detail}?page=3").content.decode()
    )
    # A view with a query string (a page, a reply, one seat's posts) never lands elsewhere.
    assert client.get(f"{detail}?reply=1").status_code == 200
    assert client.get(f"{detail}?page=1").status_code == 200
    assert _mark(ann, cast_game) == last


def test_anonymous_visitors_have_no_read_state(client, cast_game):
    _posts(cast_game, 60)
    detail = reverse("game_detail", args=[cast_game.pk])
    for _ in range(2):
        response = client.get(detail)
        assert response.status_code == 200
        assert "Mark all read" not in response.content.decode()
    assert not ReadMark.objects.exists()
    assert client.get(reverse("game_since", args=[cast_game.pk])).status_code == 302


def test_a_room_shows_its_new_posts_and_lands_on_the_first_unread(client, court_game, court_users):
    bob = court_users["bob"]
    for i in range(3):
        services.room_post(game=court_game, user=bob, room="coven", body=f"Coven {i}")
    client.force_login(court_users["dan"])  # another player's game page: no Coven link
    assert "The Coven" not in page_text(
        client.get(reverse("game_detail", args=[court_game.pk])).content.decode()
    )
    client.force_login(bob)
    detail = reverse("game_detail", args=[court_game.pk])
    text = page_text(client.get(detail).content.decode())
    assert "The Coven 3 new" in text  # beside the room's link in the seat panel
    room = room_url("game_room", court_game, "coven")
    assert client.get(room).status_code == 200  # never read: from the top
    assert _mark(bob, court_game, "coven") == 3
    services.room_post(game=court_game, user=bob, room="coven", body="Coven 4")
    response = client.get(room)
    assert response.status_code == 302 and response["Location"] == f"{room}?page=1#p4"
    text = page_text(client.get(f"{detail}?page=1").content.decode())
    assert "The Coven 1 new" in text


def test_a_thread_the_viewer_can_no_longer_read_is_never_counted(
    client, court_game, court_users, moderator
):
    """Bob reads the Coven's room, then is replaced (W-72): the room's later posts are no
    longer his, on the lobby or the since page, though his old mark stays; the newcomer
    in his seat has them."""
    bob = court_users["bob"]
    services.room_post(game=court_game, user=bob, room="coven", body="Before")
    read_marks_all(user=bob, game=court_game)
    assert _mark(bob, court_game, "coven") == 1
    newcomer = UserFactory(player_name="Newcomer")
    services.player_replace(game=court_game, seat_name="bob", new_user=newcomer, by=moderator)
    court_game.refresh_from_db()
    services.room_post(game=court_game, user=newcomer, room="coven", body="Coven-after-9911")
    assert not readable(court_game, bob).can_read("coven")
    read_marks_all(user=bob, game=court_game)  # the public thread only
    assert _mark(bob, court_game, "coven") == 1
    assert lobby_news(bob, [court_game]) == {court_game.pk: 0}
    client.force_login(bob)
    since = reverse("game_since", args=[court_game.pk])
    assert "Coven-after-9911" not in client.get(since).content.decode()
    assert lobby_news(newcomer, [court_game])[court_game.pk] >= 2
    client.force_login(newcomer)
    assert "Coven-after-9911" in client.get(since).content.decode()


def test_the_lobby_shows_new_posts_per_game_in_constant_queries(client, moderator):
    users = {name.lower(): UserFactory(player_name=name) for name, _, _ in CAST}
    games = [make_game(moderator, users) for _ in range(2)]

    ann = users["ann"]
    client.force_login(ann)
    lobby = reverse("game_list")

    def count():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(lobby)
        assert response.status_code == 200
        return len(queries), page_text(response.content.decode())

    n_before, _ = count()
    for game in games:
        _posts(game, 30)
        read_mark_forward(user=ann, game=game, thread="public", number=10)
    n_after, text = count()
    assert n_after == n_before
    last = Post.objects.filter(game=games[0]).count()
    assert text.count(f"{last - 10} new") == 2
    read_marks_all(user=ann, game=games[0])
    _, text = count()
    assert text.count(f"{last - 10} new") == 1


def test_since_page_words_the_vote_moves_with_their_wagons(client, cast_game, cast_users):
    users = cast_users
    services.vote_cast(game=cast_game, user=users["cat"], target="dan")
    client.force_login(users["ann"])
    client.get(reverse("game_detail", args=[cast_game.pk]))  # Ann's visit
    services.vote_cast(game=cast_game, user=users["eve"], target="dan")
    services.vote_cast(game=cast_game, user=users["cat"], target="eve")  # moves
    services.vote_withdraw(game=cast_game, user=users["eve"])
    services.post_create(game=cast_game, user=users["bob"], body="Where were you?\nI was here.")
    text = page_text(client.get(reverse("game_since", args=[cast_game.pk])).content.decode())
    # Eight living: a majority is 5 (W-4).
    assert "Eve voted for Dan; Dan is now L-3." in text
    assert "Cat moved from Dan to Eve; Eve is now L-4, Dan L-4." in text
    assert "Eve withdrew their vote from Dan; Dan is now L-5." in text
    assert "Cat votes" not in text  # the move before her visit is not news
    assert "Bob: Where were you?" in text
    assert "You have not voted today." in text
    assert "Day 1 ends" in text  # the deadline, in her zone
    # The page counts as a visit: nothing new the next time.
    text = page_text(client.get(reverse("game_since", args=[cast_game.pk])).content.decode())
    assert "moved from" not in text


def test_since_page_tells_deaths_and_what_the_seat_learned(cast_game, cast_users, moderator):
    users = cast_users
    ann = users["ann"]
    game_visit_record(user=ann, game=cast_game)
    for name in ("bob", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=users[name], target="hal")
    cast_game.refresh_from_db()
    assert cast_game.is_night
    page = since_page(cast_game, ann)
    happened = [line for _, lines in page.happened for line in lines]
    assert "The town lynches Hal." in happened
    votes = [line for _, lines in page.votes for line in lines]
    assert votes[-1] == "Fay voted for Hal; Hal has a majority."
    assert page.actions  # the Priest's night: her ability, not chosen yet
    assert any("not chosen yet" in line for line in page.actions)
    # Bob's own Coven vote is his to read; never Ann's.
    services.action_submit(game=cast_game, user=users["bob"], action="coven", target="ann")
    bob_page = since_page(cast_game, users["bob"], boundary=-1)
    private = " ".join(line for _, lines in bob_page.private for line in lines)
    assert "Coven: You vote to kill Ann." in private
    ann_page = since_page(cast_game, ann)
    assert "Coven" not in " ".join(line for _, lines in ann_page.private for line in lines)
    mod_page = since_page(cast_game, moderator, boundary=-1)
    assert "Coven: Bob votes to kill Ann." in " ".join(
        line for _, lines in mod_page.private for line in lines
    )


def test_game_page_links_since_from_the_previous_visit(client, cast_game, cast_users):
    ann = cast_users["ann"]
    client.force_login(ann)
    detail = reverse("game_detail", args=[cast_game.pk])
    since = f"/games/{cast_game.pk}/since/?visit=previous"
    html = client.get(detail).content.decode()
    assert f'href="{since}"' in html  # first visit: everything
    assert "Bob voted for Dan" not in page_text(client.get(since).content.decode())
    services.vote_cast(game=cast_game, user=cast_users["bob"], target="dan")
    html = client.get(f"{detail}?page=1").content.decode()
    # The link names no event (issue 25): the visit row keeps where the last one ended.
    assert f'href="{since}"' in html and "from=" not in html
    text = page_text(client.get(since).content.decode())
    assert "Bob voted for Dan; Dan is now L-4." in text
    # Reloading the game page with nothing new: the link shows nothing new either.
    client.get(f"{detail}?page=1")
    assert "Bob voted for Dan" not in page_text(client.get(since).content.decode())


def test_mark_read_refuses_a_thread_the_viewer_may_not_read(client, court_game, court_users):
    services.room_post(game=court_game, user=court_users["bob"], room="coven", body="x")
    client.force_login(court_users["ann"])
    from games.selectors import room_ref

    response = client.post(
        reverse("game_read", args=[court_game.pk]),
        {"thread": room_ref(court_game, "coven")},
        follow=True,
    )
    assert "There is no such thread for you to read." in page_text(response.content.decode())
    assert not ReadMark.objects.filter(thread="coven").exists()
    assert client.get(reverse("game_read", args=[court_game.pk])).status_code == 405


def test_since_page_marks_everything_read(client, court_game, court_users):
    services.room_post(game=court_game, user=court_users["ann"], room="court", body="Court-7")
    client.force_login(court_users["ann"])
    since = reverse("game_since", args=[court_game.pk])
    text = page_text(client.get(since).content.decode())
    assert "The King's Court 1 new" in text and "Court-7" in text
    response = client.post(reverse("game_read", args=[court_game.pk]), {"thread": "all"})
    assert response["Location"] == since
    assert _mark(court_users["ann"], court_game, "court") == 1
    assert "Court-7" not in client.get(since).content.decode()


# --- query counts ------------------------------------------------------------------------------
@pytest.fixture
def two_sizes(cast_game, cast_users, moderator):
    """The named cast's game with 10 posts, and another with 1,000."""
    big_users = {name: UserFactory(player_name=f"B{name}") for name in cast_users}
    big = make_game(moderator, big_users)
    _posts(cast_game, 10)
    _posts(big, 1000)
    return {"small": (cast_game, cast_users["ann"]), "big": (big, big_users["ann"])}


def test_new_posts_on_a_page_cost_the_same_queries_whatever_the_thread(client, two_sizes):
    counts = {}
    for label, (game, ann) in two_sizes.items():
        client.force_login(ann)
        detail = reverse("game_detail", args=[game.pk])
        pages = [f"{detail}?page=1", f"{detail}?page=last", reverse("game_since", args=[game.pk])]
        counts[label] = []
        for url in pages:
            caches["pages"].clear()  # each made whole (page 1 of the small thread is its last)
            ReadMark.objects.filter(user=ann).delete()  # and the mark moves each time
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts[label].append(len(queries))
    assert counts["big"] == counts["small"], counts


def test_the_since_page_first_lines_skip_quotes():
    from games.reading.selectors.since import _first_line

    assert _first_line("> **Ann** wrote:\n> hi\n\nI disagree.\nMore") == "I disagree."
    assert _first_line("# Case\n") == "Case"
    assert _first_line("x" * 500).endswith("…") and len(_first_line("x" * 500)) == 140
    assert re.fullmatch(r"", _first_line("> only a quote"))


def test_a_page_read_again_sends_no_read_mark(client, cast_game, cast_users):
    _posts(cast_game, 60)
    client.force_login(cast_users["ann"])
    detail = reverse("game_detail", args=[cast_game.pk])
    writes = []
    for page in ("2", "2", "1"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"{detail}?page={page}").status_code == 200
        writes.append(len([q for q in queries if 'INSERT INTO "games_readmark"' in q["sql"]]))
    assert writes == [1, 0, 0]  # the mark is past pages read again and earlier ones
    last = Post.objects.filter(game=cast_game, thread="public").order_by("-number")[0].number
    assert ReadMark.objects.get(user=cast_users["ann"], thread="public").last_number == last


def test_a_page_read_again_sends_no_visit_until_something_moves(client, cast_game, cast_users):
    """The visit read with the threads' news tells the page when recording it would write
    nothing: the statement is not sent. Something new, or a minute on, sends it again."""
    client.force_login(cast_users["ann"])
    detail = f"{reverse('game_detail', args=[cast_game.pk])}?page=1"
    visits = GameVisit.objects.filter(user=cast_users["ann"], game=cast_game)

    def sent():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(detail).status_code == 200
        return len([q for q in queries if 'INTO "games_gamevisit"' in q["sql"]])

    # The first visit, then the one that moves "the visit before" up to it, then none.
    assert [sent(), sent(), sent(), sent()] == [1, 1, 0, 0]
    services.vote_cast(game=cast_game, user=cast_users["bob"], target="dan")
    assert sent() == 1  # a new event: the visit moves at once
    event = visits.get().event_index
    assert event == cast_game.events.order_by("-index").first().index
    assert [sent(), sent()] == [1, 0]  # "the visit before" catches up, then nothing
    visits.update(visited_at=visits.get().visited_at - VISIT_TOUCH - timedelta(seconds=1))
    assert sent() == 1  # a minute on: "last seen" moves
