"""The community around a game: sign-ups and their rules, replacements, prods of silent
players, absences, and the site's notices to members (issue 16).

Layout: services/ (signups, replacements, prods, absences, notices), selectors/
(signups, replacements, absences, the desk's activity), views/ (signups, replacements,
absences; their urlpatterns gathered in urls.py), narration.py, receivers.py, ticks.py
(the sweep's part), panels.py, tasks.py (notice_emails, still named
"games.tasks.notice_emails"), admin.py (its rows, and the games' cancel action) and
templates/community/.

The core keeps the bare seat: joining and leaving an open game and a seat handed over
(games/services/seats.py). The community listens to:
- SEAT_WANTED: refuses a member short of the game's bar of finished games;
- GAME_FILLED: the last seat taken: the site deals and starts (start_when_full) or the
  host is told the game is full;
- SEAT_CHANGED_HANDS: the seat's other open offers close, and the leaver's and the
  newcomer's offers for the game's other seats (issue 25);
- GAME_STARTED: each player told in-site that their cards are dealt;
- SWEEP_TICKED: lapsed sign-ups and prods (ticks.py).

Its panels (panels.py): GAME "player" (absences in the player list), "signup" (an open
game's facts), "signup_refusal" (why the viewer may not sign up); DESK "signups" (an open
game's sign-ups and controls), "seat" (each player's absence, with its note),
"replacements" (activity, replacements, volunteers); ROLE "leave" (ask to be replaced).

Changelog:
- Issue 16: sign-ups with a start date, a bar of finished games and the site's start when
  full; the replacement list, offers and a player's ask to leave; the prod rule (a second
  prod marks the seat); members' absences, which prods wait for.
- Issue 25: one seat a game: nobody who held a seat of a game may take another in it.
- The seat's hand-over (W-72) moved to the core; the community closes the offers when a
  seat changes hands.
"""
