"""Anonymous games (issue 31): each seat carries an alias for its game, shown wherever the
game names a seat; the members behind the aliases are known to the moderator alone until
the reveal, which shows both ("Elm — Ann").

The core learns one thing of it: a seat may have an alias (`Seat.alias`, `shown_name`),
which its naming uses (selectors.seats.display_names, the thread's authors, the
replacement's notice). In an anonymous game the seat's record name is its alias's key,
never a member's key, so the record carries no real name.

- `themes.py`: the built-in alias lists (48 names each) and the host's own list's checks.
- `services.py`: the host's choice (a theme, their own list, or none) before the start,
  and the aliases dealt to the seats (again whenever the choice changes).
- `selectors.py`: whether a game is anonymous, and what it shows its moderator.
- `views.py`, `urls.py`: the desk's form.

Events it listens to (receivers.py): SEAT_NAMING (a seat taken in an anonymous game gets a
free alias, drawn at random so the order of sign-ups tells nothing).

Panels it offers (panels.py): DESK "signups" (the host's choice, while the game is open)
and "seat" (the member behind each alias, for the moderator).

Changelog:
- Issue 31: anonymous games.
"""
