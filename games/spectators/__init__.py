"""Spectators: members who follow a game they do not play (issue 31).

The host allows them on the new-game form or on the desk before the start (fixed once the
cards are dealt), with a delay: none (everything as it happens) or one phase (delay.py:
the game as it stood when the phase before the current one began, so a spectator never
sees the current phase's hidden inputs, nor the previous one's). In Werewolf the host may
also let the dead see what spectators see (WW-17 otherwise gives the graveyard no more
than the living).

- Following: a member who is not seated, has never held a seat of the game (SeatTenure,
  permissions.has_held_seat) and does not moderate it presses "Spectate" on the game page
  and may stop again. Once the cards are dealt, stopping keeps their row (closed): they
  have seen every card, so they can never take a seat, volunteer as a replacement or be
  offered one in that game. Before the deal stopping deletes it (nothing was seen).
- The spectators' page (/games/<id>/spectate/): every card (as of the cut), every private
  thread and the afterlife read-only (the core's room page and selectors), and the whole
  event log with the night actions as they resolve (the events below the cut). A
  spectator's page, the moderator's (to see what spectators see) and, when allowed, a
  dead Werewolf player's; anyone else gets a 404.
- The spectators' thread (/games/<id>/spectate/thread/): its own table (SpectatorPost),
  so that none of the core's thread listings, searches, read marks, exports or the reveal
  can reach it. Spectators write, the moderator reads; every player (living, dead,
  replaced) gets a 404, also after the end: the spectators wrote to each other, not to
  the table. The dead allowed the spectators' view do not get the thread either (they are
  players: they have the graveyard).
- The desk lists spectators and flags one who signed in within 30 days from an address a
  player of the game signed in from (UltiMafia #2083). The addresses are remembered at
  each sign-in (Django's user_logged_in, the visitor's address as witchhunt/proxy.py reads
  it behind the proxy) as an HMAC under the site's secret, never as the address, and are
  forgotten after 30 days by the clock's sweep.

Events it listens to (receivers.py): SEAT_WANTED and REPLACEMENT_ASKED (the refusals),
GAME_OPENED (the new-game form's choices, its extras), SWEEP_TICKED (old addresses go),
MEMBER_ERASED (their addresses go).

Panels it offers (panels.py): NEW_GAME "fields", DESK "spectators", GAME "spectate" (the
seat panel; nothing for a player or the moderator, so no player page changes because
spectators exist).

Changelog:
- Issue 31: spectators, their delay, their thread, the desk's flag.
"""
