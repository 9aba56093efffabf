"""The archive's reads: the finished games' list (finished.py), a player's public profile
(profiles.py), who won and for which team (outcomes.py), the final reveal and the game
record (reveal.py)."""

from .finished import ARCHIVE_PAGE_SIZE, ArchiveFilter, ArchivePage, archive_page
from .profiles import ProfilePage, profile_page
from .reveal import RevealPage, record_json, reveal_page

__all__ = [
    "ARCHIVE_PAGE_SIZE",
    "ArchiveFilter",
    "ArchivePage",
    "ProfilePage",
    "RevealPage",
    "archive_page",
    "profile_page",
    "record_json",
    "reveal_page",
]
