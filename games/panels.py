"""Panels: what a capability shows on a core page, without the core importing it.

A capability registers a provider for a page's slot when its app is ready:

    panels.register(panels.GAME, "aside", "reading/_read_bar.html", read_bar)

The page's selector asks for every registered panel with what it knows
(`collect(GAME, game=game, user=user, ...)`); each provider returns the plain data its
template shows, or None to show nothing. The template renders a slot where it stands
with `{% panel_slot page.panels "aside" %}` (templatetags/panel_tags.py), each partial
seeing its data as `panel`. A provider reads (it is a selector); who may read which
thread stays a core permission (games/permissions.py) that providers ask.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

# The core's pages that take panels.
GAME = "game"  # the game page: the public thread, players, votes
DESK = "desk"  # the moderator's desk
REVEAL = "reveal"  # the end's reveal
ROOM = "room"  # a meeting's or the afterlife's thread
ROLE = "role"  # a player's private role page
LOBBY = "lobby"  # the list of games
NEW_GAME = "new_game"  # the form that creates a game
PROFILE = "profile"  # a member's own profile and preferences (accounts/views.py)
ARCHIVE = "archive"  # the archive of finished games: a slot in each game's links
PAGES = (GAME, DESK, REVEAL, ROOM, ROLE, LOBBY, NEW_GAME, PROFILE, ARCHIVE)


@dataclass(frozen=True)
class Provider:
    slot: str
    template: str
    function: Callable[..., object]
    order: int


@dataclass(frozen=True)
class Panel:
    template: str
    data: object


@dataclass
class Panels:
    """A page's panels by slot, in order; an empty slot is falsy in a template."""

    slots: dict[str, list[Panel]] = field(default_factory=dict)

    def __getitem__(self, slot: str) -> list[Panel]:
        return self.slots.get(slot, [])

    def data(self, slot: str):
        """The first panel's data in `slot`, or None: for a page that uses one directly."""
        panels = self[slot]
        return panels[0].data if panels else None


_providers: dict[str, list[Provider]] = {page: [] for page in PAGES}


def register(
    page: str, slot: str, template: str, provider: Callable[..., object], *, order: int = 100
) -> None:
    """Show `template` in `page`'s `slot` with what `provider(**context)` returns (nothing
    when it returns None); lower `order` first. Registering the same provider again for
    the same slot changes nothing."""
    if page not in _providers:
        raise ValueError(f"{page!r} is not a page that takes panels")
    entry = Provider(slot, template, provider, order)
    if entry not in _providers[page]:
        _providers[page].append(entry)
        _providers[page].sort(key=lambda p: p.order)


def collect(page: str, **context) -> Panels:
    """Every panel registered for `page` that has something to show for `context`."""
    out = Panels()
    for provider in _providers[page]:
        data = provider.function(**context)
        if data is not None:
            out.slots.setdefault(provider.slot, []).append(Panel(provider.template, data))
    return out
