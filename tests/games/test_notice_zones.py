"""The clock's notices in the reader's zone everywhere they are quoted (issue 31): the final
reveal's moderator log and the daily digest, like the thread (games/post_times.py)."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from games import services
from games.reading.services.digest import DIGEST_HOUR, digest_send
from tests.games.afterlife_cast import page_text
from tests.games.reading.test_digest import _sent_at_once, _texts  # noqa: F401 (a fixture)
from tests.games.test_views import _play_to_the_end

pytestmark = pytest.mark.django_db

# The named cast's Day 1 ends Thu 5 Mar, 18:00 UTC; extended by an hour, 19:00 UTC, which
# is Fri 6 Mar, 04:00 in Tokyo.
TOKYO = "Fri 06 Mar, 04:00 JST"


def _extended(game, moderator):
    services.clock_extend(game=game, by=moderator, delta=timedelta(hours=1))


def test_the_digest_quotes_a_clock_notice_in_the_members_zone(
    client, game, cast_users, moderator
):
    client.force_login(cast_users["ann"])
    client.get(reverse("game_detail", args=[game.pk]))  # her last visit
    _extended(game, moderator)
    User.objects.filter(pk=cast_users["ann"].pk).update(email_digest=True, time_zone="Asia/Tokyo")
    ann = User.objects.get(pk=cast_users["ann"].pk)
    now = datetime(2026, 3, 3, DIGEST_HOUR, 30, tzinfo=ZoneInfo("Asia/Tokyo")) + timedelta(days=1)
    assert digest_send(user=ann, now=now)
    text, _ = _texts(mail.outbox[-1])
    assert f"it now ends {TOKYO}." in text, text
    assert "19:00 UTC." not in text


def test_the_reveal_quotes_the_moderators_clock_notices_in_the_readers_zone(
    client, cast_game, cast_users, moderator
):
    _extended(cast_game, moderator)
    cast_game.refresh_from_db()
    deadline = cast_game.deadline_at
    game = _play_to_the_end(cast_game, cast_users)
    reader = cast_users["cat"]
    reader.time_zone = "Asia/Tokyo"
    reader.save()
    client.force_login(reader)
    html = client.get(reverse("game_reveal", args=[game.pk])).content.decode()
    log = page_text(html.split('class="log moderator-log"', 1)[1].split("</ol>", 1)[0])
    assert "it now ends" in log and "UTC" not in log, log
    assert deadline.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M") in log
