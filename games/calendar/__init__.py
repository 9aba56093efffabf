"""The calendar of deadlines: a member's private iCalendar feed of their games' deadlines,
and a public feed per game (issue 30, "follow the game from anywhere").

A capability of its own: the core never imports it. Nothing is pushed: calendar apps read
the feeds, which are built when read from the games' rows and their public thread.

- `tokens.py`: a private address's token, derived from a nonce in its row with the site's
  secret key; the row keeps its hash to find it by.
- `services.py`: a member's address made or renewed (the old one dies at once), turned
  off, and when a calendar app last read it.
- `selectors.py`: a feed by its token; the deadlines of a member's games (seats held in
  open and running games, games they host) and of one game. Only what the public thread
  shows about time: a phase's name and end, a start date, a paused clock; how often and
  when it moved comes from the thread's public notices, so nothing hidden moves a byte.
- `ical.py`: the RFC 5545 feed (one event a deadline, its UID stable per game and phase,
  SEQUENCE and LAST-MODIFIED moving with each public move, an alarm an hour before).
- `narration.py`: the events' words, in the member's language (the request's for a game's
  public feed).
- `views.py`, `urls.py`: `/calendar/<token>.ics`, `/games/<id>/calendar.ics`, and the
  profile's buttons (a new address, turn it off).

Events it listens to (receivers.py): MEMBER_ERASED (the address goes), MEMBER_EXPORT (when
it was made and last read; never the address).

Panels it offers (panels.py): PROFILE "preferences" (the address, to copy or open in a
calendar app, renew or turn off), GAME "jump_links_end" (after the page's own links) and
"head" (a running game's public feed, linked and as a <link rel="alternate">).

Changelog:
- Issue 30: the private and public feeds.
"""
