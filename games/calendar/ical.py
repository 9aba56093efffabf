"""Deadlines as an iCalendar feed (RFC 5545), with the `icalendar` library: one VEVENT a
deadline, a point in time (a DTSTART and no end: RFC 5545 3.6.1) with an alarm an hour
before, its UID the same for a game's phase however often it moves, so a calendar app
updates the event rather than adding one; SEQUENCE, LAST-MODIFIED and DTSTAMP move with the
public notices of a move (selectors.py), never with the moment the feed is read. Times in
UTC. Words in the language active when it is built."""

from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from icalendar import Alarm, Calendar, Event

from . import narration

PRODID = "-//Witchhunt//Deadlines//EN"
ALARM_BEFORE = timedelta(hours=1)
# How often a calendar app should read the feed again (RFC 7986, and the older X- name).
REFRESH = timedelta(hours=1)


def _uid(deadline) -> str:
    # The site's host, not the request's: one event whatever address the feed was read at.
    host = urlsplit(settings.SITE_URL).hostname or "witchhunt"
    what = deadline.phase.replace(" ", "-") if deadline.phase else "start"
    return f"game-{deadline.game_id}-{what}@{host}"


def game_url(game_id: int) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("game_detail", args=[game_id])


def _event(deadline) -> Event:
    url = game_url(deadline.game_id)
    summary = narration.summary(deadline)
    event = Event()
    event.add("uid", _uid(deadline))
    event.add("dtstamp", deadline.changed_at)
    event.add("last-modified", deadline.changed_at)
    event.add("sequence", deadline.sequence)
    event.add("dtstart", deadline.at)
    event.add("summary", summary)
    event.add("description", narration.description(deadline, url))
    event.add("url", url)
    event.add("transp", "TRANSPARENT")  # a deadline does not make its reader busy
    event.add("status", "TENTATIVE" if deadline.paused else "CONFIRMED")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", -ALARM_BEFORE)
    event.add_component(alarm)
    return event


def feed_bytes(deadlines, name: str) -> bytes:
    """The feed of `deadlines`, named `name`: folded at 75 octets, lines ending in CRLF."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    for deadline in deadlines:
        calendar.add_component(_event(deadline))
    return calendar.to_ical()
