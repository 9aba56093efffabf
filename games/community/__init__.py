"""The community around a game: sign-ups and their rules, replacements, prods of silent
players, absences, and the site's notices to members.

The players told in-site when a game starts (GAME_STARTED); lapsed sign-ups and prods
ride the clock's sweep (SWEEP_TICKED).
"""
