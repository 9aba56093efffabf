import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy

PLAYER_NAME_MIN_LENGTH = 2
PLAYER_NAME_MAX_LENGTH = 24

# ASCII only: game records use the lowercased name as an identifier, and look-alike letters
# from other scripts would let two players pass for one another.
_player_name_characters = RegexValidator(
    r"\A[A-Za-z0-9_]+\Z",
    message=gettext_lazy("Use only letters (a-z), digits and underscores."),
    code="invalid_characters",
)


def validate_player_name(value: str) -> None:
    if not PLAYER_NAME_MIN_LENGTH <= len(value) <= PLAYER_NAME_MAX_LENGTH:
        raise ValidationError(
            gettext_lazy("A player name has %(min)d to %(max)d characters."),
            code="length",
            params={"min": PLAYER_NAME_MIN_LENGTH, "max": PLAYER_NAME_MAX_LENGTH},
        )
    _player_name_characters(value)


@cache
def available_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in available_time_zones():
        raise ValidationError(
            gettext_lazy("Unknown time zone %(zone)s."), code="unknown", params={"zone": value}
        )


# A member's colour theme (accounts.User.theme): blank follows the browser's
# prefers-color-scheme; the others are rendered as <html data-theme="..."> (templates/base.html).
THEMES = ("light", "dark")
THEME_REFUSED = gettext_lazy("Choose a theme: your browser’s, light or dark.")


def validate_theme(value: str) -> None:
    if value and value not in THEMES:
        raise ValidationError(THEME_REFUSED, code="unknown_theme")
