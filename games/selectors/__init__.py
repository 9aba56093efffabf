"""Every read for a page, one module per area; query counts are pinned by tests
(tests/games/test_queries.py). Selectors return dataclasses or plain data; they never
write. The names below are the ones views, template tags and emails use."""

from .clock import early_end_panel
from .desk import desk_page, moderator_log
from .game import game_page, game_panels
from .lobby import games_awaiting, lobby_games, lobby_mine, lobby_user_games
from .role import role_page
from .rooms import (
    afterlife_page,
    afterlife_state_for,
    game_state_if_running,
    label_of,
    room_key,
    room_links,
    room_page,
    room_ref,
    seat_room,
    seat_rooms,
)
from .seats import (
    SeatPanel,
    display_names,
    game_display_names,
    game_seats,
    public_status,
    seat_panel,
    seats_public,
)
from .threads import (
    POSTS_PER_PAGE,
    page_number,
    post_page,
    post_quote,
    post_url,
    posts_quoted,
    thread_page,
)
from .votes import HISTORY_SHOWN, VoteCount, count_at_post, vote_count, vote_history

__all__ = [
    "HISTORY_SHOWN",
    "POSTS_PER_PAGE",
    "SeatPanel",
    "VoteCount",
    "afterlife_page",
    "afterlife_state_for",
    "count_at_post",
    "desk_page",
    "display_names",
    "early_end_panel",
    "game_display_names",
    "game_page",
    "game_panels",
    "game_seats",
    "games_awaiting",
    "game_state_if_running",
    "label_of",
    "lobby_games",
    "lobby_mine",
    "lobby_user_games",
    "moderator_log",
    "page_number",
    "post_page",
    "post_quote",
    "posts_quoted",
    "post_url",
    "public_status",
    "role_page",
    "room_key",
    "room_links",
    "room_page",
    "room_ref",
    "seat_panel",
    "seat_room",
    "seat_rooms",
    "seats_public",
    "thread_page",
    "vote_count",
    "vote_history",
]
