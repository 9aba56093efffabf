"""Numbers from the address bar, bounded where they come in.

Every row id and post number is a 64-bit signed integer in the database: a larger number
cannot name anything, and SQLite refuses even to be asked about one (OverflowError, a 500).
`<id:game_id>` in a route takes 1 to 19 digits up to 2**63 - 1 and is a 404 beyond;
`parse_id` reads a query-string number the same way.
"""

from django.urls import register_converter

MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("larger than any id")  # the route does not match: a 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))


def parse_id(text: str | None) -> int | None:
    """A positive id or post number written in plain ASCII digits, else None."""
    if not text or len(text) > 19 or not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def register() -> None:
    register_converter(IdConverter, "id")
