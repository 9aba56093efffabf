"""The community's writes, one module per area: sign-ups (signups.py), replacements
(replacements.py), prods (prods.py), absences (absences.py) and the site's notices
(notices.py). Each locks the game row first, as the core's services do."""
