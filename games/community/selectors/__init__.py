"""The community's reads: sign-ups (signups.py), the replacement list and offers
(replacements.py), absences (absences.py) and the desk's activity (activity.py)."""
