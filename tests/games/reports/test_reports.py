"""Reports (games/reports): a player reports a post to the game's moderator, once; the desk
lists the open ones beside the hide tool, and the moderator hides the post, dismisses the
report or handles it with a word; the reporter is told the outcome and sees their reports'
states. Nobody else sees a report, the reported player is never told who reported, and
every refusal says why in words and writes nothing."""

import pytest
from django.urls import reverse

from games import services
from games.engine import GameRuleError
from games.models import Ignore, Notification, Post, PostReport
from games.reports import services as reports
from games.reports.receivers import member_erased, member_export_part
from games.selectors import room_ref
from tests.factories import UserFactory
from tests.games.afterlife_cast import afterlife_users, page_text, play_to_day_3
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db

BOB_SAYS = "Bob-says-7311"
NOTE = "He pasted his role page."


@pytest.fixture
def bob_post(cast_game, cast_users):
    return services.post_create(game=cast_game, user=cast_users["bob"], body=BOB_SAYS)


def _about(game, number, ref="public"):
    return reverse("post_about", args=[game.pk, ref, number])


def _report(client, user, game, number, *, reason="outside", note=NOTE, ref="public"):
    client.force_login(user)
    url = reverse("post_report", args=[game.pk, ref, number])
    return client.post(url, {"reason": reason, "note": note}, follow=True)


def _settle(client, moderator, game, report, **data):
    client.force_login(moderator)
    url = reverse("report_settle", args=[game.pk, report.pk])
    return client.post(url, data, follow=True)


def _text(response):
    return page_text(response.content.decode())


def test_a_player_reports_a_post_and_only_the_moderators_desk_lists_it(
    client, cast_game, cast_users, moderator, bob_post
):
    response = _report(client, cast_users["ann"], cast_game, bob_post.number)
    assert "Your report is with the moderator" in _text(response)
    report = PostReport.objects.get()
    assert (report.post, report.reporter, report.reason, report.note) == (
        bob_post, cast_users["ann"], "outside", NOTE,
    )  # fmt: skip
    # The post's page now says so to Ann, and to nobody else.
    assert "You have reported this post" in _text(client.get(_about(cast_game, bob_post.number)))
    for other in ("bob", "cat"):
        client.force_login(cast_users[other])
        page = _text(client.get(_about(cast_game, bob_post.number)))
        assert "You have reported" not in page and NOTE not in page
        assert client.get(reverse("game_desk", args=[cast_game.pk])).status_code == 404
        assert NOTE not in _text(client.get(reverse("my_reports")))
    client.force_login(moderator)
    desk = _text(client.get(reverse("game_desk", args=[cast_game.pk])))
    assert f"#{bob_post.number} in the game's thread by Bob" in desk
    assert "Reported by Ann" in desk and NOTE in desk
    # Bob is told nothing: no notification, nor anything on his pages.
    assert not Notification.objects.filter(user=cast_users["bob"], kind="report").exists()


def test_a_second_report_of_the_same_post_by_the_same_player_is_refused(
    client, cast_game, cast_users, bob_post
):
    _report(client, cast_users["ann"], cast_game, bob_post.number)
    response = _report(client, cast_users["ann"], cast_game, bob_post.number, reason="spam")
    assert f"You have already reported post #{bob_post.number}" in _text(response)
    assert PostReport.objects.get().reason == "outside"
    # Another player may report it too.
    _report(client, cast_users["cat"], cast_game, bob_post.number, reason="spam")
    assert PostReport.objects.count() == 2


def _refusal(game, user, number, **kwargs):
    with pytest.raises(GameRuleError) as refused:
        reports.report_make(
            game=game, thread="public", number=number, user=user,
            reason=kwargs.pop("reason", "abuse"), note=kwargs.pop("note", ""),
        )  # fmt: skip
    assert PostReport.objects.count() == 0
    return str(refused.value)


def test_each_refusal_says_why_and_writes_nothing(cast_game, cast_users, moderator, bob_post):
    ann = cast_users["ann"]
    notice = services.announcement_post(game=cast_game, by=moderator, body="Rules reminder.")
    start = Post.objects.filter(game=cast_game, kind=Post.Kind.SYSTEM).first()
    outsider = UserFactory(player_name="Outsider")
    cases = [
        (ann, notice.number, {}, "only a player's post can be reported"),
        (ann, start.number, {}, "only a player's post can be reported"),
        (cast_users["bob"], bob_post.number, {}, "that post is your own"),
        (outsider, bob_post.number, {}, "only the game's players can report its posts"),
        (moderator, bob_post.number, {}, "you moderate this game"),
        (ann, 999, {}, "there is no post #999 in that thread"),
        (ann, bob_post.number, {"reason": "bored"}, "choose a reason from the list"),
        (ann, bob_post.number, {"note": "x" * 501}, "keep the note under 500 characters"),
    ]
    for user, number, extra, words in cases:
        assert words in _refusal(cast_game, user, number, **extra), (user, number, extra)
    services.post_hide(game=cast_game, thread="public", number=bob_post.number, by=moderator)
    assert "already hidden" in _refusal(cast_game, ann, bob_post.number)


def test_a_finished_game_takes_no_report(moderator, cast_users):
    game = make_game(moderator, cast_users)
    post = services.post_create(game=game, user=cast_users["bob"], body=BOB_SAYS)
    services.stalemate_declare(game=game, by=moderator)
    game.refresh_from_db()
    assert "this one is not running" in _refusal(game, cast_users["ann"], post.number)


def test_reports_are_rate_limited(cast_game, cast_users, monkeypatch):
    monkeypatch.setattr(reports, "REPORTS_PER_HOUR", 2)
    posts = [
        services.post_create(game=cast_game, user=cast_users[n], body=f"{n} says hi")
        for n in ("bob", "cat", "dan")
    ]
    for post in posts[:2]:
        reports.report_make(
            game=cast_game, thread="public", number=post.number, user=cast_users["ann"],
            reason="spam",
        )  # fmt: skip
    with pytest.raises(GameRuleError, match="2 reports in the last hour"):
        reports.report_make(
            game=cast_game, thread="public", number=posts[2].number, user=cast_users["ann"],
            reason="spam",
        )  # fmt: skip
    assert PostReport.objects.count() == 2


def test_a_room_post_is_reported_only_by_a_reader_of_that_room(
    client, moderator, court_users, court_game
):
    # Night 1 formed the Court (Ann, Eve, Ivy) in court_game; Bob leads the Coven.
    game = court_game
    services.phase_advance(game=game, by=moderator)  # Night 2: the rooms are open
    game.refresh_from_db()
    post = services.room_post(game=game, user=court_users["bob"], room="coven", body="Coven-9")
    ref = room_ref(game, "coven")
    client.force_login(court_users["ann"])  # not in the Coven: the same 404 as no room
    assert client.get(_about(game, post.number, ref)).status_code == 404
    assert (
        client.post(
            reverse("post_report", args=[game.pk, ref, post.number]), {"reason": "spam"}
        ).status_code
        == 404
    )
    with pytest.raises(GameRuleError, match="there is no post"):
        reports.report_make(
            game=game, thread="coven", number=post.number, user=court_users["ann"],
            reason="spam",
        )  # fmt: skip
    assert PostReport.objects.count() == 0


def test_hiding_settles_every_open_report_of_the_post_and_tells_each_reporter(
    client, cast_game, cast_users, moderator, bob_post
):
    _report(client, cast_users["ann"], cast_game, bob_post.number)
    _report(client, cast_users["cat"], cast_game, bob_post.number, reason="abuse")
    first = PostReport.objects.get(reporter=cast_users["ann"])
    response = _settle(client, moderator, cast_game, first, outcome="hidden", reason="No roles.")
    assert "The report is settled" in _text(response)
    post = Post.objects.get(pk=bob_post.pk)
    assert post.hidden_at is not None and post.hidden_reason == "No roles."
    assert set(PostReport.objects.values_list("state", flat=True)) == {"hidden"}
    for name in ("ann", "cat"):
        note = Notification.objects.get(user=cast_users[name], kind="report")
        assert "the moderator hid the post" in note.text
    assert not Notification.objects.filter(user=cast_users["bob"], kind="report").exists()
    client.force_login(cast_users["ann"])
    mine = _text(client.get(reverse("my_reports")))
    assert "The moderator hid the post" in mine and "The named cast" in mine


def test_dismissed_and_handled_reach_the_reporter_in_words(
    client, cast_game, cast_users, moderator, bob_post
):
    _report(client, cast_users["ann"], cast_game, bob_post.number)
    _report(client, cast_users["cat"], cast_game, bob_post.number)
    ann, cat = (PostReport.objects.get(reporter=cast_users[n]) for n in ("ann", "cat"))
    _settle(client, moderator, cast_game, ann, outcome="dismissed")
    assert (
        "left the post as it is"
        in Notification.objects.get(user=cast_users["ann"], kind="report").text
    )
    # Handled needs a word to the reporter: without one, nothing changes.
    response = _settle(client, moderator, cast_game, cat, outcome="handled", answer="  ")
    assert "Say a word to the reporter" in _text(response)
    assert PostReport.objects.get(pk=cat.pk).state == "open"
    _settle(client, moderator, cast_game, cat, outcome="handled", answer="I warned Bob.")
    note = Notification.objects.get(user=cast_users["cat"], kind="report")
    assert "was handled. The moderator says: I warned Bob." in note.text
    # Settled once: a second act on it is refused in words.
    response = _settle(client, moderator, cast_game, cat, outcome="dismissed")
    assert "That report is already settled" in _text(response)
    assert Post.objects.get(pk=bob_post.pk).hidden_at is None  # dismissed and handled: shown
    client.force_login(cast_users["cat"])
    mine = _text(client.get(reverse("my_reports")))
    assert "Handled by the moderator: I warned Bob." in mine


def test_only_the_games_own_moderator_settles_its_reports(
    client, cast_game, cast_users, moderator, bob_post
):
    _report(client, cast_users["ann"], cast_game, bob_post.number)
    report = PostReport.objects.get()
    # A player: the desk's act is a 404, and the service refuses in words.
    client.force_login(cast_users["cat"])
    url = reverse("report_settle", args=[cast_game.pk, report.pk])
    assert client.post(url, {"outcome": "dismissed"}).status_code == 404
    with pytest.raises(GameRuleError, match="only the game's moderator can settle its reports"):
        reports.report_settle(game=cast_game, pk=report.pk, by=cast_users["cat"], outcome="hidden")
    # Another game's moderator, through their own game: no such report there.
    other_mod = UserFactory(player_name="Other")
    other = make_game(other_mod, {n: UserFactory(player_name=f"{n}2") for n in
                                  ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")},
                      title="Another")  # fmt: skip
    client.force_login(other_mod)
    response = client.post(
        reverse("report_settle", args=[other.pk, report.pk]), {"outcome": "dismissed"}, follow=True
    )
    assert "There is no such report in this game" in _text(response)
    assert PostReport.objects.get().state == "open"
    assert not Notification.objects.filter(kind="report").exists()


def test_a_rooms_members_and_the_dead_report_what_they_read(client, moderator):
    users = afterlife_users()
    game, _newcomer = play_to_day_3(moderator, users)
    lovers = Post.objects.get(game=game, thread="lovers-1", author=users["gus"])
    beyond = Post.objects.get(game=game, thread="afterlife", author=users["bob"])
    _report(client, users["fay"], game, lovers.number, ref=room_ref(game, "lovers-1"))
    _report(client, users["ann"], game, beyond.number, ref="afterlife", reason="afterlife")
    assert set(PostReport.objects.values_list("reporter__player_name", "post__thread")) == {
        ("Fay", "lovers-1"),
        ("Ann", "afterlife"),
    }
    client.force_login(moderator)
    desk = _text(client.get(reverse("game_desk", args=[game.pk])))
    assert f"#{beyond.number} in" in desk and "by Bob" in desk and "by Gus" in desk
    # The afterlife's outcome names no room: "a room" for a meeting, "the afterlife" here.
    ann_report = PostReport.objects.get(reporter=users["ann"])
    reports.report_settle(game=game, pk=ann_report.pk, by=moderator, outcome="dismissed")
    assert "in the afterlife of" in Notification.objects.get(user=users["ann"], kind="report").text
    # Her data's download lists her report; her erasure removes it and her ignores.
    Ignore.objects.create(owner=users["ann"], member=users["bob"])
    exported = member_export_part({}, user=users["ann"])
    assert exported["reports"][0]["post"] == beyond.number and exported["ignoring"] == ["Bob"]
    member_erased(user=users["ann"])
    assert not PostReport.objects.filter(reporter=users["ann"]).exists()
    assert not Ignore.objects.filter(owner=users["ann"]).exists()


def test_the_admin_lists_reports_read_only(client, cast_game, cast_users, bob_post):
    _report(client, cast_users["ann"], cast_game, bob_post.number)
    client.force_login(UserFactory(player_name="Root", is_staff=True, is_superuser=True))
    listed = client.get(reverse("admin:games_postreport_changelist"))
    assert listed.status_code == 200 and "The named cast" in listed.content.decode()
    assert client.get(reverse("admin:games_postreport_add")).status_code == 403
