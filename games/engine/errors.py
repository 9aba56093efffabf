"""The two kinds of failure the engine reports."""


class RecordError(ValueError):
    """A record or setup that cannot be read at all: `play_record` exits 2 with this line."""


class GameRuleError(Exception):
    """A well-formed input the rules do not allow now.

    The message is shown to the player as is, so it must reveal nothing the actor does
    not already know (W-8): "not a living player", never "offstage".
    """
