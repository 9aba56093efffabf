"""Moments in the site's notices (games/post_times.py): stored as an instant, shown in each
reader's zone when the thread is drawn, without JavaScript; older notices stay as written."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone

from games import post_times, services
from games.models import Post
from games.selectors.threads import moments
from tests.games import said

AT = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)


# --- the pure parts ---------------------------------------------------------------------------
def test_notice_keeps_utc_words_in_the_text_and_the_instant_in_the_html():
    tokyo = AT.astimezone(ZoneInfo("Asia/Tokyo"))  # the same instant, whatever its zone
    text, html = post_times.notice("{who} ends {moment}.", who="<b>day</b> & night", moment=tokyo)
    assert text == "<b>day</b> & night ends Thu 05 Mar, 18:00 UTC."
    assert html == (
        "<p>&lt;b&gt;day&lt;/b&gt; &amp; night ends "
        '<time datetime="2026-03-05T18:00:00Z">Thu 05 Mar, 18:00 UTC</time>.</p>'
    )
    assert post_times.notice("{m}", css="post__announcement", m=AT)[1].startswith(
        '<p class="post__announcement"><time'
    )


def test_localise_writes_each_moment_in_the_readers_zone():
    html = post_times.notice("From {a} to {b}.", a=AT, b=AT + timedelta(hours=1, minutes=30))[1]
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        local = post_times.localise(html, moments())
    assert local == (
        '<p>From <time datetime="2026-03-05T18:00:00Z" title="Friday 6 March 2026, 03:00 JST">'
        'Fri 6 Mar, 03:00 JST</time> to <time datetime="2026-03-05T19:30:00Z" '
        'title="Friday 6 March 2026, 04:30 JST">Fri 6 Mar, 04:30 JST</time>.</p>'
    )


def test_localise_leaves_other_markup_alone():
    others = (
        '<p><time datetime="2026-03-05T18:00:00+00:00">18:00</time> '
        '<time datetime="2026-03-05T18:00:00Z" title="x">18:00</time> '
        "&lt;time datetime=&quot;2026-03-05T18:00:00Z&quot;&gt;</p>"
    )
    assert post_times.localise(others, moments()) == others


# --- the thread -------------------------------------------------------------------------------
def _thread(client, game):
    return client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_a_clock_notice_reads_in_the_members_zone_and_a_visitors(
    game, client, moderator, cast_users
):
    services.clock_extend(game=game, by=moderator, delta=timedelta(hours=1))
    ann = cast_users["ann"]
    ann.time_zone = "Asia/Tokyo"
    ann.save(update_fields=["time_zone"])
    client.force_login(ann)
    # Day 1 now ends Thu 5 Mar, 19:00 UTC: Fri 6 Mar, 04:00 in Tokyo.
    assert (
        "The moderator extended day 1 by 1 h: it now ends "
        '<time datetime="2026-03-05T19:00:00Z" title="Friday 6 March 2026, 04:00 JST">'
        "Fri 6 Mar, 04:00 JST</time>." in _thread(client, game)
    )
    client.logout()
    session = client.session
    session["browser_time_zone"] = "America/New_York"
    session.save()
    assert "it now ends <time" in (html := _thread(client, game))
    assert ">Thu 5 Mar, 14:00 EST</time>." in html
    # The notice as stored names no reader's zone.
    assert said.text(Post.objects.get(game=game, kind=Post.Kind.MODERATOR)).endswith(
        "Thu 05 Mar, 19:00 UTC."
    )


def test_older_notices_and_players_posts_are_shown_as_written(game, client, cast_users):
    # A clock notice written before moments were stored: its UTC words, as they are.
    Post.objects.create(
        game=game,
        thread="public",
        number=Post.objects.filter(game=game).count() + 1,
        kind=Post.Kind.SYSTEM,
        body="Every living player is done with day 1: it now ends Thu 05 Mar, 18:00 UTC.",
        phase="day 1",
    )
    typed = 'see <time datetime="2026-03-05T18:00:00Z">then</time>'
    services.post_create(game=game, user=cast_users["bob"], body=typed)
    client.force_login(cast_users["ann"])
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        html = _thread(client, game)
    assert "it now ends Thu 05 Mar, 18:00 UTC.</p>" in html
    # A player's text cannot make a moment: it is escaped, and left as typed.
    assert "see &lt;time datetime=" in html and "Fri 6 Mar, 03:00" not in html
