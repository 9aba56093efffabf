"""The viewer's links on the core's pages: the reveal and each game of the archive (both
only list finished games, so the link is the same for every reader; no query)."""

from games import panels


def viewer_link(**_):
    return {}


def register() -> None:
    panels.register(panels.REVEAL, "links", "viewer/_reveal_link.html", viewer_link)
    panels.register(panels.ARCHIVE, "game_links", "viewer/_archive_link.html", viewer_link)
