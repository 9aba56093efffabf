"""The threads at any length (issue 13): a page is a key range of post numbers (no OFFSET,
no count), one seat's posts page by their numbers, each post's words and times are made
once (in the reader's zone, as the `date` filter writes them), the vote history comes a
day at a time, and the reveal reads a long game in as many queries as a short one."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import caches
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, GameEvent, Post
from games.selectors import post_url
from games.selectors.threads import moments, thread_page
from tests.factories import UserFactory
from tests.games.afterlife_cast import room_url

pytestmark = pytest.mark.django_db

ID = re.compile(r'<li class="post post--[a-z]+" id="p(\d+)"')


def _fill(game, users, n, *, thread="public", seats=None):
    """n player posts after the thread's last, by `seats` (names) in turn; their numbers."""
    by_name = {s.name: s for s in game.seats.all()}
    names = seats or sorted(by_name)
    first = Post.objects.filter(game=game, thread=thread).count()
    posts = [
        Post(
            game=game,
            thread=thread,
            number=first + i,
            kind="player",
            seat=by_name[names[i % len(names)]],
            author=users[names[i % len(names)]],
            body=f"post {first + i}",
            body_html=f"<p>post {first + i}</p>",
            phase=game.phase,
        )
        for i in range(1, n + 1)
    ]
    Post.objects.bulk_create(posts)
    return [p.number for p in posts]


def _shown(response):
    assert response.status_code == 200
    return [int(n) for n in ID.findall(response.content.decode())]


def _links(response):
    """The thread's page links as (label, href or None), from the first nav."""
    nav = re.search(r'<nav class="pagination".*?</nav>', response.content.decode(), re.S)
    if nav is None:
        return []
    items = re.findall(r"<(a|span)([^>]*)>([^<]*)</\1>", nav.group(0))
    return [
        (label, (re.search(r'href="([^"]*)"', attrs) or [None, None])[1])
        for _tag, attrs, label in items
    ]


# --- times in the reader's zone ---------------------------------------------------------------
TIMES = [
    ("UTC", datetime(2030, 1, 1, 12, 0, 5, 123456, tzinfo=UTC)),
    ("Asia/Tokyo", datetime(2030, 1, 1, 23, 59, tzinfo=UTC)),  # the next day there
    ("Asia/Kathmandu", datetime(2030, 6, 15, 6, 10, tzinfo=UTC)),  # +05:45
    ("America/St_Johns", datetime(2030, 7, 4, 2, 0, tzinfo=UTC)),  # -02:30, summer
    ("Europe/Paris", datetime(2030, 3, 31, 0, 59, tzinfo=UTC)),  # the last minute of CET
    ("Europe/Paris", datetime(2030, 3, 31, 1, 0, tzinfo=UTC)),  # the first of CEST
    ("Europe/Paris", datetime(2030, 10, 27, 0, 30, tzinfo=UTC)),  # 02:30, the first time
    ("Europe/Paris", datetime(2030, 10, 27, 1, 30, tzinfo=UTC)),  # 02:30 again
]


@pytest.mark.parametrize(("zone", "at"), TIMES)
def test_post_times_are_what_the_date_filter_writes(zone, at):
    template = engines["django"].from_string(
        '{{ at|date:"c" }}|{{ at|date:"l j F Y, H:i T" }}|{{ at|date:"D j M, H:i" }}|'
        '{{ at|date:"T" }}'
    )
    with timezone.override(ZoneInfo(zone)):
        expected = template.render({"at": at}).split("|")
        # The machine-readable time to the second: a page's 50 posts spare 350 bytes.
        expected[0] = template.render({"at": at.replace(microsecond=0)}).split("|")[0]
        assert list(moments()(at)) == expected


def test_a_post_shows_its_time_in_each_readers_zone(client, cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="When?")
    Post.objects.filter(pk=post.pk).update(created_at=datetime(2030, 10, 27, 1, 30, tzinfo=UTC))
    for zone, shown in (
        # 02:30 happens twice in Paris that night: the zone's name is left out (the "T" format).
        ("Europe/Paris", '<time datetime="2030-10-27T02:30:00+01:00">Sun 27 Oct, 02:30</time> '
         '</span>'),
        ("Asia/Tokyo", '<time datetime="2030-10-27T10:30:00+09:00">Sun 27 Oct, 10:30</time> JST'
         '</span>'),
    ):  # fmt: skip
        cast_users["cat"].time_zone = zone
        cast_users["cat"].save()
        client.force_login(cast_users["cat"])
        page = client.get(reverse("game_detail", args=[cast_game.pk]), follow=True)
        assert shown in page.content.decode()


# --- pages of the whole thread ----------------------------------------------------------------
def _settle(client, url):
    """Views of `url` until what a first view writes or caches once is done (the visit's
    first rows, the players' absences cached), so that counted views compare alike."""
    for _ in range(2):
        assert client.get(url).status_code in (200, 302)


def test_a_page_is_a_key_range_of_post_numbers(client, cast_game, cast_users):
    _fill(cast_game, cast_users, 130)
    total = Post.objects.filter(game=cast_game).count()
    detail = reverse("game_detail", args=[cast_game.pk])
    last = (total - 1) // 50 + 1
    for page in range(1, last + 1):
        expected = list(range((page - 1) * 50 + 1, min(page * 50, total) + 1))
        assert _shown(client.get(f"{detail}?page={page}")) == expected
    last_page = list(range((last - 1) * 50 + 1, total + 1))
    assert _shown(client.get(f"{detail}?page=last")) == last_page
    for past in ("99", "9" * 30):  # past the end: the last page
        assert _shown(client.get(f"{detail}?page={past}")) == last_page
    for nonsense in ("0", "-3", "x", "²", ""):
        assert _shown(client.get(f"{detail}?page={nonsense}"))[0] == 1
    # A post's permalink (replies, quotes, emails, notices) lands on its page.
    for number in (1, 50, 51, 100, 101, total):
        url = post_url(cast_game.pk, number)
        path, anchor = url.split("#")
        assert anchor == f"p{number}" and number in _shown(client.get(path))


def test_page_links_give_the_ends_and_two_pages_either_side(cast_game, cast_users):
    _fill(cast_game, cast_users, 500 - Post.objects.filter(game=cast_game).count())

    def labels(page):
        return [
            f"[{link.label}]" if link.current else link.label
            for link in thread_page(cast_game, page=page).links
        ]

    assert labels(1) == ["[1]", "2", "3", "…", "10", "Next"]
    assert labels(4) == ["Previous", "1", "2", "3", "[4]", "5", "6", "…", "10", "Next"]
    assert labels(5) == ["Previous", "1", "…", "3", "4", "[5]", "6", "7", "…", "10", "Next"]
    assert labels(10) == ["Previous", "1", "…", "8", "9", "[10]"]
    assert thread_page(cast_game, page=3).links[0].href == "?page=2"
    Post.objects.filter(game=cast_game, number__gt=50).delete()
    assert thread_page(cast_game, page=1).links == []  # one page: no links


def test_the_last_page_of_a_long_thread_reads_no_offset_and_no_count(client, cast_game, cast_users):
    _fill(cast_game, cast_users, 700)
    detail = reverse("game_detail", args=[cast_game.pk])
    _settle(client, detail)
    counts = []
    for page in ("1", "last"):
        caches["pages"].clear()  # each page made whole, not from the other's cached parts
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"{detail}?page={page}").status_code == 200
        posts = [q["sql"].upper() for q in queries if "GAMES_POST" in q["sql"].upper()]
        assert posts and not [q for q in posts if "OFFSET" in q or "COUNT(" in q], posts
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- one seat's posts ---------------------------------------------------------------------------
def test_one_seats_posts_page_by_their_numbers(client, cast_game, cast_users):
    numbers = _fill(cast_game, cast_users, 240, seats=["ann", "bob"])
    ann = list(
        Post.objects.filter(game=cast_game, seat__name="ann")
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert len(ann) == 120
    client.force_login(cast_users["cat"])
    detail = reverse("game_detail", args=[cast_game.pk])
    first = client.get(f"{detail}?only=ann")
    assert _shown(first) == ann[:50]
    assert [label for label, _ in _links(first)] == ["Next", "Last"]
    nxt = dict(_links(first))["Next"].replace("&amp;", "&")
    second = client.get(detail + nxt)
    assert _shown(second) == ann[50:100]
    assert [label for label, _ in _links(second)] == ["First", "Previous", "Next", "Last"]
    third = client.get(detail + dict(_links(second))["Next"].replace("&amp;", "&"))
    assert _shown(third) == ann[100:]
    assert [label for label, _ in _links(third)] == ["First", "Previous"]
    back = client.get(detail + dict(_links(third))["Previous"].replace("&amp;", "&"))
    assert _shown(back) == ann[50:100]
    last = client.get(detail + dict(_links(first))["Last"].replace("&amp;", "&"))
    assert _shown(last) == ann[-50:]
    assert (
        _shown(client.get(detail + dict(_links(last))["First"].replace("&amp;", "&"))) == (ann[:50])
    )
    # A bad cursor is ignored; one past every post shows nothing rather than failing.
    assert _shown(client.get(f"{detail}?only=ann&after=x")) == ann[:50]
    assert _shown(client.get(f"{detail}?only=ann&after={numbers[-1]}")) == []


def test_reply_from_one_seats_page_keeps_that_page(client, cast_game, cast_users):
    numbers = _fill(cast_game, cast_users, 120, seats=["bob"])
    client.force_login(cast_users["ann"])
    detail = reverse("game_detail", args=[cast_game.pk])
    page = client.get(f"{detail}?only=bob&after={numbers[49]}")
    html = page.content.decode()
    reply = f'href="?only=bob&amp;after={numbers[49]}&amp;reply={numbers[50]}#post-form"'
    assert reply in html
    again = client.get(f"{detail}?only=bob&after={numbers[49]}&reply={numbers[50]}")
    assert _shown(again) == numbers[50:100]
    assert again.context["post_form"].initial["reply_to"] == numbers[50]


# --- rooms --------------------------------------------------------------------------------------
def test_a_rooms_last_page_and_its_permalinks(client, cast_game, cast_users):
    _fill(cast_game, cast_users, 120, thread="coven", seats=["bob"])
    client.force_login(cast_users["bob"])  # the Coven's Elder
    url = room_url("game_room", cast_game, "coven")
    response = client.get(f"{url}?page=last")
    assert _shown(response) == list(range(101, 121))
    html = response.content.decode()
    assert '<a class="post__number" href="?page=3#p120">#120</a>' in html
    assert '<span class="post__author" id="p120-by">Bob</span>' in html
    assert [label for label, _ in _links(response)] == ["Previous", "1", "2", "3"]


# --- the vote history, a day at a time ----------------------------------------------------------
def _day_2_with_votes(game, users):
    """Ann and Cat vote for Bob and Ann withdraws on Day 1; Dan votes for Eve on Day 2."""
    services.vote_cast(game=game, user=users["ann"], target="bob")
    services.vote_cast(game=game, user=users["cat"], target="bob")
    services.vote_withdraw(game=game, user=users["ann"])
    services.phase_advance(game=game, by=game.host)  # night 1
    services.phase_advance(game=game, by=game.host)  # day 2
    game.refresh_from_db()
    assert game.phase == "day 2"
    services.vote_cast(game=game, user=users["dan"], target="eve")
    return game


def _history(response):
    """The votes a page lists, in words."""
    return _history_of(response.content.decode())


def _history_of(html):
    listed = re.search(r'<ol class="vote-history">(.*?)</ol>', html, re.S)
    texts = r'<li><span class="vote-history__text">([^<]*)</span>'
    return re.findall(texts, listed.group(1)) if listed else []


def test_the_game_page_shows_the_days_votes_and_links_the_earlier_days(
    client, cast_game, cast_users
):
    game = _day_2_with_votes(cast_game, cast_users)
    response = client.get(reverse("game_detail", args=[game.pk]))
    html = response.content.decode()
    assert _history(response)[:1] == ["Dan votes to lynch Eve."]
    assert "Ann votes to lynch Bob." not in html
    day_1 = reverse("game_votes_day", args=[game.pk, 1])
    assert f'<a href="{day_1}">Day 1</a>' in html
    assert '<span aria-current="page">Day 2</span>' in html
    page = client.get(day_1)
    votes = _history(page)
    assert votes[:3] == [
        "Ann votes to lynch Bob.",
        "Cat votes to lynch Bob.",
        "Ann withdraws their vote.",
    ]
    assert "Dan votes to lynch Eve." not in page.content.decode()


def test_a_day_the_game_has_not_reached_is_a_404(client, cast_game, cast_users, moderator):
    client.force_login(moderator)
    for day in (0, 2, 99, 2**63 - 1):
        assert client.get(reverse("game_votes_day", args=[cast_game.pk, day])).status_code == 404
    assert client.get(reverse("game_votes_day", args=[cast_game.pk, 1])).status_code == 200
    game = services.game_create(
        host=moderator, ruleset="witchhunt", title="Open", seats_count=8, deal=cast_game.deal
    )
    assert client.get(reverse("game_votes_day", args=[game.pk, 1])).status_code == 404


def test_the_history_shows_only_public_day_votes(client, cast_game, cast_users):
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    # An event of a vote's kind addressed to one seat (none is today): never in the history.
    last = GameEvent.objects.filter(game=cast_game).order_by("-index").first().index
    private = GameEvent.objects.create(
        game=cast_game,
        index=last + 1,
        kind="vote",
        phase="day 1",
        audience=GameEvent.Audience.SEATS,
        data={"voter": "hal", "target": "cat"},
    )
    private.recipients.add(cast_game.seats.get(name="hal"))
    for viewer in (None, cast_users["hal"]):
        client.logout()
        if viewer:
            client.force_login(viewer)
        for url in (
            reverse("game_detail", args=[cast_game.pk]),
            reverse("game_votes_day", args=[cast_game.pk, 1]),
        ):
            response = client.get(url)
            assert "Ann votes to lynch Bob." in _history(response)
            assert "Hal votes to lynch Cat." not in response.content.decode()


def _votes(game, day, n):
    """n public day votes on day `day`, stored after the game's last event."""
    last = GameEvent.objects.filter(game=game).order_by("-index").first().index
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            index=last + 1 + i,
            kind="vote",
            phase=f"day {day}",
            audience="public",
            data={"voter": "ann", "target": "bob"},
        )
        for i in range(n)
    )


def test_the_history_reads_one_day_in_as_many_queries_whatever_the_votes(
    client, cast_game, cast_users, moderator
):
    game = _day_2_with_votes(cast_game, cast_users)
    detail = reverse("game_detail", args=[game.pk])
    day_1 = reverse("game_votes_day", args=[game.pk, 1])
    _settle(client, detail)
    counts = []
    for extra in (0, 600):
        _votes(game, 1, extra)
        caches["pages"].clear()  # the votes are written behind the game's version
        with CaptureQueriesContext(connection) as page:
            shown = _history(client.get(detail))
        with CaptureQueriesContext(connection) as day:
            earlier = _history(client.get(day_1))
        counts.append((len(page), len(day)))
        assert shown[:1] == ["Dan votes to lynch Eve."] and len(shown) == 1
        assert len(earlier) == 3 + extra
    assert counts[0] == counts[1]


# --- the game page's history: the day's last moves (issue 29) ----------------------------------
NAMES = ("ann", "bob", "cat", "dan", "eve")


def _moves(game, n, day=1):
    """n public votes and withdrawals on day `day` after the game's last event, none periodic
    within twenty; their words, in order."""
    last = GameEvent.objects.filter(game=game).order_by("-index").first().index
    events, words = [], []
    for i in range(n):
        voter, target = NAMES[i % 5], NAMES[(i // 5) % 5]
        if i % 7 == 3:
            data, kind, text = {"voter": voter}, "unvote", f"{voter.title()} withdraws their vote."
        else:
            data, kind = {"voter": voter, "target": target}, "vote"
            text = f"{voter.title()} votes to lynch {target.title()}."
        events.append(
            GameEvent(
                game=game,
                index=last + 1 + i,
                kind=kind,
                phase=f"day {day}",
                audience="public",
                data=data,
            )
        )
        words.append(text)
    GameEvent.objects.bulk_create(events)
    caches["pages"].clear()  # the events are written behind the game's version
    return words


CUT = re.compile(r"<p class=\"muted\">The last (\d+) of the day's (\d+) moves?\. "
                 r'<a href="([^"]+)">Show the whole day</a></p>')  # fmt: skip


def test_a_long_day_shows_its_last_20_moves_and_links_the_whole_day(client, cast_game):
    words = _moves(cast_game, 500)
    # A vote addressed to one seat is neither shown nor counted.
    GameEvent.objects.create(game=cast_game, index=10_000, kind="vote", phase="day 1",
                             audience=GameEvent.Audience.SEATS,
                             data={"voter": "hal", "target": "cat"})  # fmt: skip
    response = client.get(reverse("game_detail", args=[cast_game.pk]))
    assert _history(response) == words[-20:]  # the oldest of them first
    day_1 = reverse("game_votes_day", args=[cast_game.pk, 1])
    assert CUT.findall(response.content.decode()) == [("20", "500", day_1)]
    whole = client.get(day_1)
    assert _history(whole) == words
    assert not CUT.search(whole.content.decode())


@pytest.mark.parametrize("n", [0, 1, 20])
def test_a_day_of_20_moves_or_fewer_shows_them_all_without_the_link(client, cast_game, n):
    words = _moves(cast_game, n)
    html = client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
    assert _history_of(html) == words
    assert "Show the whole day" not in html and "The last " not in html


def test_one_move_past_20_shows_the_link(client, cast_game):
    words = _moves(cast_game, 21)
    html = client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
    assert _history_of(html) == words[1:]
    day_1 = reverse("game_votes_day", args=[cast_game.pk, 1])
    assert CUT.findall(html) == [("20", "21", day_1)]


def test_the_game_pages_history_costs_the_same_for_30_and_600_moves(client, cast_game):
    _settle(client, reverse("game_detail", args=[cast_game.pk]))
    words, sizes, counts = [], [], []
    for n in (30, 570):  # 30, then 600 moves in all
        words += _moves(cast_game, n)
        with CaptureQueriesContext(connection) as queries:
            html = client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
        assert _history_of(html) == words[-20:]
        counts.append(len(queries))
        sizes.append(len(re.search(r'<ol class="vote-history">.*?</ol>', html, re.S).group()))
    assert counts[0] == counts[1], counts
    assert sizes[1] <= sizes[0] + 200, sizes  # the same 20 rows; only the links' numbers


# --- the reveal of a long game ------------------------------------------------------------------
def _private_events(game, n):
    """n private results addressed to Ann and Bob, after the game's last event."""
    seats = {s.name: s for s in game.seats.all()}
    last = GameEvent.objects.filter(game=game).order_by("-index").first().index
    rows = GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            index=last + 1 + i,
            kind="info",
            phase="day 1",
            audience="seats",
            data={"what": "priest", "about": "hal", "result": "coven"},
        )
        for i in range(n)
    )
    through = GameEvent.recipients.through
    through.objects.bulk_create(
        through(gameevent_id=row.pk, seat_id=seats[name].pk)
        for row in rows
        for name in ("bob", "ann")
    )


@pytest.mark.slow
def test_the_reveal_reads_a_long_game_in_as_many_queries_as_a_short_one(
    client, cast_game, moderator
):
    services.stalemate_declare(game=cast_game, by=moderator)
    url = reverse("game_reveal", args=[cast_game.pk])
    counts = []
    for extra in (0, 800):
        _private_events(cast_game, extra)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
        # No statement grows with the game: no list of every event's id (a prefetch's IN).
        assert max(q["sql"].count("%s") + q["sql"].count("?") for q in queries) < 20
        assert max(len(q["sql"]) for q in queries) < 3000
    assert counts[0] == counts[1]
    text = re.sub(r"\s+", " ", response.content.decode())
    # Their audience, in seat order, for each of them.
    assert text.count("to Ann, Bob</span>") >= 800


def test_the_reveal_still_names_who_saw_each_private_event(client, cast_game, moderator):
    services.stalemate_declare(game=cast_game, by=moderator)
    assert Game.objects.get(pk=cast_game.pk).status == Game.Status.FINISHED
    html = client.get(reverse("game_reveal", args=[cast_game.pk])).content.decode()
    private = GameEvent.objects.filter(game=cast_game, audience="seats").prefetch_related(
        "recipients"
    )
    assert private
    names = {s.name: s.user.player_name for s in cast_game.seats.select_related("user")}
    for event in private:
        seats = ", ".join(names[s.name] for s in event.recipients.order_by("position"))
        assert seats in html, seats


def test_posts_either_side_of_the_readers_midnight_carry_their_own_days(
    client, cast_game, cast_users
):
    """The day's words are made once a day: two posts either side of the reader's midnight
    carry their own days."""
    first = services.post_create(game=cast_game, user=cast_users["ann"], body="late")
    second = services.post_create(game=cast_game, user=cast_users["bob"], body="early")
    midnight = datetime(2030, 5, 1, 15, 0, tzinfo=UTC)  # midnight in Tokyo
    Post.objects.filter(pk=first.pk).update(created_at=midnight - timedelta(minutes=1))
    Post.objects.filter(pk=second.pk).update(created_at=midnight)
    cast_users["cat"].time_zone = "Asia/Tokyo"
    cast_users["cat"].save()
    client.force_login(cast_users["cat"])
    html = client.get(reverse("game_detail", args=[cast_game.pk])).content.decode()
    assert ">Wed 1 May, 23:59</time> JST" in html and ">Thu 2 May, 00:00</time> JST" in html


def test_an_outsider_sees_no_reply_links_and_a_player_sees_them(client, cast_game, cast_users):
    _fill(cast_game, cast_users, 3, seats=["bob"])
    detail = reverse("game_detail", args=[cast_game.pk])
    client.force_login(UserFactory())
    html = client.get(detail).content.decode()
    assert "reply=" not in html and 'href="?only=bob">Only Bob’s posts</a>' in html
    client.force_login(cast_users["ann"])
    html = client.get(detail).content.decode()
    assert 'href="?page=1&amp;reply=' in html and 'href="?page=1&amp;quote=' in html


def test_cursors_at_the_edge_of_the_numbers(client, cast_game, cast_users):
    numbers = _fill(cast_game, cast_users, 60, seats=["ann"])
    detail = reverse("game_detail", args=[cast_game.pk])
    largest = str(2**63 - 1)  # the largest number an address may carry (parse_id)
    assert _shown(client.get(f"{detail}?only=ann&before={largest}")) == numbers[-50:]
    assert _shown(client.get(f"{detail}?only=ann&page=last")) == numbers[-50:]
    assert _shown(client.get(f"{detail}?only=ann&after={largest}")) == []
    assert _shown(client.get(f"{detail}?only=ann&before=1")) == []
