"""The game viewer's pages (issue 31): three views of a finished game, a step a moment; the
last step is the final reveal; the public view is the public thread's; the count beside a
post is the core's count as of that post; the addresses stay; only finished games."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.archive.selectors import reveal_page
from games.mapping import engine_state
from games.models import GameEvent, Post
from games.selectors.seats import display_names, seats_public
from games.selectors.votes import count_at_post
from games.viewer.narration import view_labels
from games.viewer.selectors import viewer_page
from games.viewer.timeline import POST
from tests.games.afterlife_cast import AFTERLIFE_CAST
from tests.games.conftest import make_game
from tests.games.noninterference import normal
from tests.games.viewer.viewer_game import afterlife_users, finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(db):
    return afterlife_users()


@pytest.fixture
def finished(moderator, users):
    return finish(moderator, users)


def _steps(game, view):
    labels = view_labels()
    first = viewer_page(game, view, 1, labels)
    return [first] + [viewer_page(game, view, n, labels) for n in range(2, first.steps + 1)]


def test_the_last_step_of_everything_is_the_final_reveal(finished):
    pages = _steps(finished, "everything")
    last, reveal = pages[-1], reveal_page(finished)
    state = engine_state(finished)
    assert last.next_url == "" and pages[0].prev_url == ""
    # The cards, each seat's status, extra lives and Archangel cards: the reveal's.
    assert [
        (r.seat.name, r.seat.assignment.character, r.seat.assignment.type) for r in last.cards
    ] == [(s.name, s.assignment.character, s.assignment.type) for s in reveal.seats]
    assert {r.seat.name: r.status for r in last.cards} == reveal.statuses
    assert [(r.lives, r.cards) for r in last.cards] == [(s.lives, s.cards) for s in state.seats]
    # And every event of the reveal's log is told at exactly one step, in order.
    told = [i for page in pages for i in _current_events(page)]
    assert told == sorted(e.index for _phase, events in reveal.log for e in events)


def _current_events(page):
    return [e.index for e in page.shown[-1].events]


def test_each_step_has_its_own_address_and_the_pages_link_in_order(finished):
    client = Client()
    for view in ("public", "everything", "seat-cat"):
        pages = _steps(finished, view)
        for n, page in enumerate(pages, start=1):
            url = reverse("viewer_step", args=[finished.pk, view, n])
            assert page.shown[-1].url == url and page.shown[-1].current
            assert page.prev_url == (
                reverse("viewer_step", args=[finished.pk, view, n - 1]) if n > 1 else ""
            )
            assert page.next_url == (
                reverse("viewer_step", args=[finished.pk, view, n + 1]) if n < len(pages) else ""
            )
        response = client.get(reverse("viewer_step", args=[finished.pk, view, len(pages)]))
        assert response.status_code == 200
        assert 'rel="prev"' in response.content.decode()


def test_the_public_view_shows_the_public_thread_and_public_events_only(finished):
    public_posts = list(
        Post.objects.filter(game=finished, thread="public")
        .order_by("number")
        .values_list("number", flat=True)
    )
    shown_posts = []
    for page in _steps(finished, "public"):
        item = page.shown[-1]
        assert not page.cards and page.role is None
        assert all(e.audience == GameEvent.Audience.PUBLIC for e in item.events)
        if item.kind == POST:
            assert item.room == ""
            shown_posts.append(int(item.post["number"]))
    assert shown_posts == public_posts


def test_the_count_beside_a_post_is_the_count_as_of_that_post(finished):
    names = display_names(seats_public(finished))
    checked = 0
    for page in _steps(finished, "public"):
        item = page.shown[-1]
        if item.kind != POST:
            continue
        core = count_at_post(finished, int(item.post["number"]), names)
        if core.count is None:
            assert page.count is None
            continue
        assert (page.count.rows, page.count.not_voting, page.count.needed) == (
            core.count.rows,
            core.count.not_voting,
            core.count.needed,
        )
        checked += 1
    assert checked >= 3


def test_the_addresses_stay_when_a_post_is_hidden_after_the_end(finished, moderator):
    def moments(view):
        return [(p.shown[-1].kind, p.order, p.shown[-1].at) for p in _steps(finished, view)]

    before = {view: moments(view) for view in ("public", "everything", "seat-fay")}
    post = Post.objects.filter(game=finished, thread="lovers-1").order_by("number").first()
    services.post_hide(
        game=finished, thread="lovers-1", number=post.number, by=moderator, reason="A card."
    )
    for view, was in before.items():
        now = moments(view)
        assert now[: len(was)] == was, view
    # The step of that post shows it hidden, as the thread does.
    hidden = [
        page.shown[-1].post for page in _steps(finished, "everything")
        if page.shown[-1].room and page.shown[-1].post["number"] == str(post.number)
        and "lovers" in page.shown[-1].room.lower()
    ]  # fmt: skip
    assert hidden and all(p["hidden"] and not p["body_html"] for p in hidden)


def test_a_game_not_over_and_a_missing_view_or_step_are_the_sites_404(finished, moderator, users):
    client = Client()
    running = make_game(moderator, users, cast=AFTERLIFE_CAST, title="Still running")
    missing = client.get(reverse("game_reveal", args=[running.pk]))
    assert missing.status_code == 404
    for url in (
        reverse("viewer_step", args=[running.pk, "public", 1]),
        reverse("viewer_step", args=[running.pk, "everything", 1]),
        reverse("viewer_open", args=[running.pk]),
        reverse("viewer_step", args=[finished.pk, "seat-nobody", 1]),
        reverse("viewer_step", args=[finished.pk, "secret", 1]),
        reverse("viewer_step", args=[finished.pk, "public", 9999]),
        reverse("viewer_open", args=[finished.pk]) + "?view=seat-zed",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        # The same page, but for its own address and the form's token (each request's).
        path = url.split("?")[0]
        assert normal(response.content).replace(path, "") == normal(missing.content).replace(
            reverse("game_reveal", args=[running.pk]), ""
        ), url


def test_another_view_opens_at_the_same_moment(finished):
    client = Client()
    page = viewer_page(finished, "everything", 20, view_labels())
    response = client.get(
        reverse("viewer_open", args=[finished.pk]) + f"?view=public&at={page.order}"
    )
    assert response.status_code == 302
    step = int(response["Location"].rstrip("/").split("/")[-1])
    there = viewer_page(finished, "public", step, view_labels())
    assert there.order <= page.order
    if there.next_url:
        assert viewer_page(finished, "public", step + 1, view_labels()).order > page.order


def test_the_reveal_and_the_archive_link_to_the_viewer(finished):
    client = Client()
    first = reverse("viewer_step", args=[finished.pk, "public", 1])
    assert first in client.get(reverse("game_reveal", args=[finished.pk])).content.decode()
    assert first in client.get(reverse("archive")).content.decode()
    assert client.get(first).status_code == 200


def test_a_step_page_reads_in_a_pinned_number_of_queries(finished, django_assert_num_queries):
    client = Client()
    url = reverse("viewer_step", args=[finished.pk, "seat-gus", 12])
    client.get(url)  # the state caches warm
    with django_assert_num_queries(QUERIES):
        assert client.get(url).status_code == 200


# The game, the session's member and the moderation grant are not read for a visitor: the
# game; the seats with their cards; the events and their seats (2); the inputs; the posts'
# places; the seat's knowledge; the posts shown; a replaced seat's names then (2).
QUERIES = 9
