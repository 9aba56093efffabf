"""What a game announces to its webhooks (the story), and who hears it."""

from dataclasses import dataclass

EVENTS = (
    "signups_open",
    "game_started",
    "phase_ended",
    "phase_began",
    "deadline_near",
    "vote_count",
    "game_ended",
)


@dataclass(frozen=True)
class Story:
    event: str  # one of EVENTS, or "test" (the desk's "send a test")
    title: str  # one line: "Game 12 · Day 2 has begun"
    text: str = ""  # plain text, a few lines, public information only
    url: str = ""  # absolute link to the public page it is about
    fields: tuple = ()  # ((name, value), ...): "Lynched" / "Elm"
    once: str = ""  # non-empty: at most one delivery per destination with this key
    # non-empty: a later story with the same key supersedes a pending one (debounce) and,
    # on Discord, edits the message in place
    replaces: str = ""
    mentions: tuple = ()  # member ids a destination that allows mentions may ping


_sinks = []


def listen(sink):
    """`sink(game, event, build)` is called for each story; `build(language) -> Story`."""
    if sink not in _sinks:
        _sinks.append(sink)


def announce(game, event, build):
    """Called by the receivers inside the game write's transaction (game None: site-wide)."""
    for sink in _sinks:
        sink(game, event, build)
