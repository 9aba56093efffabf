"""The archive: finished games, players' profiles, the final reveal and the game record
(the home of a future game viewer).

A capability of its own: the core never imports it; the core's pages link to its pages by
URL name (`game_reveal`, `game_record`, `player_profile`, `archive`).

- `selectors/`: `finished.py` the finished games, newest first, searchable by player, by a
  card in the deal, by winner, by rules and by when they finished (three queries a page);
  `profiles.py` a player's public profile; `outcomes.py` who won a finished game and which
  team a card played for, for many games at once; `reveal.py` the final reveal (every
  card and event, the moderator's acts, every private thread, the shared notes, the
  rulings) and the game record as the downloaded file's text.
- `narration.py`: a player's record in words (teams, win rates, reliability).
- `forms.py`: the archive's search, a plain GET form.
- `views.py`, `urls.py`: the reveal (`game_reveal`), the record download (`game_record`:
  a finished game's, or a running one's for its moderator), the profile (`player_profile`)
  and the archive (`archive`); templates under `templates/archive/`.

The game's logs (selectors/log.py, narration/logs.py, selectors/why.py) and the reveal's
rooms (views/rooms.py `game_reveal_room`) stay in the core: the desk and the afterlife
show them too.

Events it listens to: none. Panels it offers: none. The reveal is its page: it collects
the panels other capabilities register for panels.REVEAL (the fair deal's "head" and
"deal") and renders their slots where the sealed deal stood.

Changelog:
- Issue 16 (a community of games): the public profile (the games a player sits in or sat
  in, what each finished one dealt them and whether they won, win rates per team,
  replacements taken, reliability) and the archive of finished games with its search.
- Issue 17: the reveal shows the rulings behind each outcome and the sealed deal opened.
- W-72: the reveal lists the moderator's acts; a seat's result is credited to whoever
  held it at the end.
- Moved out of the core into this package ("a core that announces, capabilities that
  listen"); the reveal's sealed deal became the fair deal's panel.
"""
