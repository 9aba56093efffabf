"""Reports and ignore: a player tells the moderator of a post; a member stops reading another.

- Reports. A member who holds a seat in a running game, and may read the thread a player's
  post is in now (the public thread; a room they are in; the afterlife while they are in
  it), reports that post to the game's moderator: a reason from a short list and an
  optional note, once per post. Not the moderator's posts, nor the site's, nor their own;
  spectators and visitors, who have no seat, cannot. The DESK's "reports" panel (beside
  the hide tool) lists the open ones to the game's moderator alone, with three acts: hide
  the post (the core's post_hide), dismiss, or handled with a word to the reporter. The
  reporter is told the outcome by a site notification (Notification kind "report") and
  sees their reports' states on their own page (/reports/); the reported player is never
  told, and nobody but the moderator learns who reported.
- Ignore. A signed-in member ignores another member from a post's "Report or ignore" page,
  and stops ignoring from the profile's preferences. The ignored member's player posts
  collapse to one line ("a post by X, hidden by you") in a <details> that opens without
  script: the game page's public thread (GAME "ignore"), rooms and the afterlife (ROOM
  "ignore"), the live refresh too. Never the vote count, the votes, the moderator's or
  the site's posts. One query per page for the viewer's ignore set; a viewer with one
  gets the thread made for them (views/fragments.py OWN_SLOTS), everyone else the cache.
  In an anonymous game (a seat with an `alias`), the ignore is the seat's in that game, so
  that nothing ties the alias to the member ("Elm in Game 12" on the profile).
- Listens to MEMBER_ERASED (their reports and ignores removed, and ignores of them) and
  MEMBER_EXPORT (their own reports and ignores).

Its tables, PostReport and Ignore, are in games/models.py. History: issue 31 ("more ways to
play").
"""
