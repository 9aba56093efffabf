"""Reading: what each member has read, notifications (mentions, quotes, wagon alerts),
the "since you last read" page, the daily digest, and private notes on players.

Mentions are linked in a post's body before it is stored (POST_BODY), its readers told
(POST_CREATED), wagon alerts follow a vote (INPUT_APPLIED).

Read state and coming back: each member's mark in each thread (ReadMark, forward only),
their last visit to each game (GameVisit), "Mark all read", the "since you last read" page
(games/<id>/since/, games/<id>/read/: views/since.py) and the daily digest (tasks.py:
the beat's "games.tasks.digest_sweep"). Modules: selectors/readable.py (who reads which
thread), selectors/news.py ("N new", the read bar, the lobby's counts), selectors/since.py
and selectors/votes.py (what changed), services/read_state.py (marks, visits),
services/digest.py, narration/since.py (the words), views/threads.py (the thread pages'
read state), panels.py.
- Listens to THREAD_OPENED (a reader who has read the thread before lands on their first
  unread post: the opening's redirect; the thread's last number for the page),
  THREAD_SHOWN (the mark moves to the page's last post; the game page records the visit)
  and POSTS_APPENDED (the live refresh's posts are read).
- Panels: GAME "read_bar", "jump_links" (Since you last read), "desk_link" (new posts in
  the private threads), "thread_badge" ("N new" beside the seat's rooms); ROOM "read_bar",
  "thread_badge"; DESK "thread_badge"; LOBBY "game_badge" ("N new" beside a game).

Changelog (read state and coming back):
- Issue 15: read marks, landing on the first unread post, "Mark all read", "N new" on the
  thread pages, the desk and the lobby, "since you last read" with the day's vote moves
  and their wagons, and the opt-in daily digest in each member's morning.
- Issue 25: the game page's "since you last read" link names no event (an event's index
  counts hidden ones): the visit keeps where the previous one ended (?visit=previous).
- Moved out of the core into this package: the core's thread pages announce THREAD_OPENED
  and THREAD_SHOWN, the live refresh POSTS_APPENDED, and collect reading's panels; the
  pages' HTML is unchanged.
"""
