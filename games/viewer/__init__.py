"""The game viewer: a finished game stepped through, moment by moment (issue 31).

A capability of its own: the core never imports it. It adds no table: a finished game's
record (its setup and inputs), its stored events and its posts are enough. The reveal and
the archive link to it (panels); its pages are public once the game is over, as the
reveal and every private thread are (W-71, WW-16).

- `timeline.py`: the game's moments in order (the deal, each input with the events it
  made, each post of every thread), found by replaying the record once, and which of them
  each view shows: its steps. A step is one moment, so a 48-seat game of 1,115 inputs
  stays a page a step, with a jump list of its phases.
- `selectors.py`: a step's page: the moment and the steps before it in its phase, the
  public vote count as of it (selectors/votes.count_from_events), and the state after it
  as the view saw it: every card ("everything", with the rulings behind each resolution),
  what everyone knew ("public"), or the seat's role page and rooms as they stood ("as seat
  X saw it", from the live pages' own reads: seats.seat_panel, permissions.rooms_in_state,
  engine.can_see and engine.sees_everything).
- `views.py`, `urls.py`: `/games/<id>/viewer/<view>/<step>/` (views: `public`,
  `everything`, `seat-<seat name>`), and `/games/<id>/viewer/` which opens a view at the
  moment another view showed; a game that is not over, a view or a step that does not
  exist is the site's 404.
- `static/viewer/viewer.js`: the arrow keys step back and on (no inline script: CSP).
- `narration.py`: the views' names.

A replaced seat: its view follows the seat, whoever held it (its cards, rooms and role
page passed to the replacement at once, W-72); the names are as they were then ("Ann
(replaced by Bob)").

Events it listens to: none. Panels it offers (panels.py): REVEAL "links" and ARCHIVE
"game_links" (a link to the viewer).

Changelog:
- Issue 31: the viewer, its three views, its links from the reveal and the archive.
"""
