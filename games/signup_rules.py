"""The bounds of a game's sign-up settings, checked the same way at creation and when the
moderator changes them before the start (services/games.py, services/signups.py). Pure:
plain values in, the value or a GameRuleError in words out."""

from datetime import timedelta

from django.utils.translation import gettext

from games.engine import GameRuleError

# A start date is at least an hour away (players need time to see the game) and at most
# a season ahead.
START_MIN = timedelta(hours=1)
START_MAX = timedelta(days=90)
MIN_GAMES_MAX = 100


def signups_start_checked(at, now):
    """`at`, the moment the game should start, if it is between an hour and 90 days away."""
    if at < now + START_MIN:
        raise GameRuleError(gettext("choose a start date at least an hour from now"))
    if at > now + START_MAX:
        raise GameRuleError(gettext("choose a start date at most 90 days from now"))
    return at


def min_games_checked(count: int) -> int:
    if not 0 <= count <= MIN_GAMES_MAX:
        raise GameRuleError(
            gettext("ask for between 0 and %(most)s finished games") % {"most": MIN_GAMES_MAX}
        )
    return count
