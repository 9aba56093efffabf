"""Reading: what each member has read, notifications (mentions, quotes, wagon alerts),
the "since you last read" page, the daily digest, and private notes on players.

Mentions are linked in a post's body before it is stored (POST_BODY), its readers told
(POST_CREATED), wagon alerts follow a vote (INPUT_APPLIED).

Mentions, quotes and wagon alerts (mentions.py, services/notifications.py,
selectors/mentions.py, narration/notifications.py, tasks.py):
- listens to POST_BODY (`@name`s linked), POST_CREATED (the post's readers it mentions
  or quotes told), INPUT_APPLIED (a day vote's wagon alerts queued after the commit) and
  SEAT_CHANGED_HANDS (whether anyone in the game asked for alerts is read again);
- its Celery tasks keep their names, games.tasks.post_notification_emails and
  games.tasks.vote_alerts, connected to the jobs of the same names (queue.after_commit);
- writes through the core's inbox (games/services/inbox.py), which owns the list page,
  the header's count and the emails' form.

Private notes on players (services/notes.py, selectors/notes.py, views/notes.py, the
notes page at /games/<id>/notes/):
- listens to GAME_PAGE_SEATS: the viewer's notes are read in the game page's own seats
  query (a LEFT JOIN), so they cost the page no query;
- panels: GAME "player_note" and "post_head" (the viewer's note badge on a player's line
  on each of their posts: reading/_note_badge.html; these slots are the reader's own, so
  the page is then made for them, never served from the shared cache), GAME
  "players_foot" (the notes page's link, reading/_notes_link.html), REVEAL "before_log"
  (the notes the players shared, reading/_shared_notes.html).

Changelog:
- Issue 15: mentions (`@name`) and quotes of a member's post notify them, in-site and by
  email (User.email_mentions), only where they may read the thread: a mention in a hidden
  room of someone outside it notifies nobody. A wagon one vote from a lynch (W-4) and a
  vote landing on a member alert those who asked (User.wagon_alerts), once per target and
  day; the vote's own transaction stays five statements, the alerts written by a task.
- Private notes: a read (town, scum, unsure) and a text on each other player, shown to
  their author alone beside the players and their posts, kept after the game, and shown
  in the reveal only when shared.
- The notifications, the notes and their pages moved into this package from the core
  (games/services/notifications.py, services/notes.py, selectors/notes.py,
  views/notes.py, mentions.py); the core announces its events and collects panels.
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
