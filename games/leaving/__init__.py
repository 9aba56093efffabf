"""Leaving the site: a member downloads their data and deletes their account (issue 27).

- The export (`services.member_export`) is the member's profile, preferences, posts, votes
  and night actions, and the games they sat in, with their cards only once a game is
  finished (a running game's cards stay on its role page, which follows the game); the
  core's MEMBER_EXPORT lets the community (absences, the replacement list) and the reading
  (notes) add their own sections.
- The deletion (`services.member_erase`) anonymises the account row, which the games'
  history keeps pointing at ("a former member", an address that cannot receive mail, no
  password, inactive), removes its addresses, sessions and queued emails, rewords the
  site's own posts that named it, and announces MEMBER_ERASED: the community hands their
  running seats to the replacement list, takes them out of open games and cancels the open
  games they host, and drops their absences and list entries; the reading drops their
  notes, read marks and notifications. A host's running games go on under the site's
  moderators (the holders of games.moderate_any_game): with none, the deletion is refused.
- Pages: "Download my data" and "Delete my account" from the profile; the admin's
  action on members does the same deletion (games/leaving/admin.py).

It listens to nothing and offers no panel: it is reached from the profile page.
"""
