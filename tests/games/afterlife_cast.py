"""A second named cast for the rooms and the desk (issue 7): a ten-seat Witchhunt game played
to the morning of Day 3, so that every kind of viewer the rooms must tell apart exists.

- Day 1: the town lynches Bob, an Elder (a Demon in the afterlife, W-17). Before dying he
  posts in the Coven's room; dead, he vetoes Cat for the night.
- Night 1: Hal, the other Elder, has the Coven kill Ann, the Priest (an Angel).
- Day 2: the town lynches Eve, the Magician: before Halftime her death is fake and she is
  offstage (W-41).
- Night 2: Ann protects Cat; the Coven kills Dan, the Dirty Old Bastard, whose death is
  announced on the morning of Day 3: his last act is usable, so he is offstage (W-14a).
- Day 3: the moderator replaces Gus (the Harlot, a Village Lover) with Newcomer.

Room posts: `COVEN_POST` (Bob, Day 1), `SPIES_POST` (Cat), `LOVERS_POST` (Fay and Gus),
`AFTERLIFE_POST` (Ann and Bob, dead). The characters in play are secret (public_setup off).
"""

import html
import re

from django.urls import reverse

from games import services
from games.mapping import engine_state
from games.selectors import room_ref
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

AFTERLIFE_CAST = [  # player name, character, type
    ("Ann", "priest", "holy_villager"),
    ("Bob", "judge", "elder_witch"),
    ("Cat", "oracle", "village_spy"),
    ("Dan", "dirty_old_bastard", "basic_villager"),
    ("Eve", "magician", "basic_villager"),
    ("Fay", "cupid", "village_lover"),
    ("Gus", "harlot", "village_lover"),
    ("Hal", "wizard", "elder_witch"),
    ("Ivy", "inquisitor", "basic_villager"),
    ("Jon", "survivalist", "basic_villager"),
]
COVEN_POST = "Coven-plan-4471"
SPIES_POST = "Spy-note-5582"
LOVERS_POST = "Lover-note-6693"
AFTERLIFE_POST = "Beyond-note-7704"


def afterlife_users():
    return users_for(AFTERLIFE_CAST)


def lynch(game, users, target):
    """The living vote for `target` one by one until the lynch happens (W-4)."""
    voters = [s.name for s in engine_state(game).seats if s.living and s.name != target]
    for voter in voters:
        game.refresh_from_db()
        if game.is_night:
            break
        services.vote_cast(game=game, user=users[voter], target=target)
    game.refresh_from_db()
    assert game.is_night, f"{target} was not lynched"


def post(game, user, room, body):
    return services.room_post(game=game, user=user, room=room, body=body)


def play_to_day_3(moderator, users, *, replace=True):
    """The game described above, on the morning of Day 3; returns (game, newcomer)."""
    game = make_game(moderator, users, cast=AFTERLIFE_CAST, options={"public_setup": False})
    post(game, users["bob"], "coven", f"{COVEN_POST}: Ann tonight.")
    post(game, users["cat"], "spies", f"{SPIES_POST}: watch Bob.")
    post(game, users["fay"], "lovers-1", f"{LOVERS_POST}: stay close.")
    post(game, users["gus"], "lovers-1", f"{LOVERS_POST}: always.")
    lynch(game, users, "bob")  # Night 1
    post(game, users["bob"], "afterlife", f"{AFTERLIFE_POST}: a Demon arrives.")
    services.action_submit(game=game, user=users["bob"], action="veto", target="cat")
    services.action_submit(game=game, user=users["hal"], action="coven", target="ann")
    services.phase_advance(game=game, by=moderator)  # Day 2: Ann is dead
    game.refresh_from_db()
    post(game, users["ann"], "afterlife", f"{AFTERLIFE_POST}: an Angel arrives.")
    lynch(game, users, "eve")  # Night 2: Eve's death is fake (W-41)
    services.action_submit(game=game, user=users["ann"], action="protect", target="cat")
    services.action_submit(game=game, user=users["hal"], action="coven", target="dan")
    services.phase_advance(game=game, by=moderator)  # Day 3: Dan's last act (W-14)
    game.refresh_from_db()
    assert game.phase == "day 3"
    newcomer = None
    if replace:
        newcomer = UserFactory(player_name="Newcomer")
        services.player_replace(game=game, seat_name="gus", new_user=newcomer, by=moderator)
        game.refresh_from_db()
    return game, newcomer


def room_url(name, game, key):
    """The URL `name` (game_room, game_room_post, game_afterlife_room, game_desk_room,
    game_reveal_room) of room `key`: a URL names a room by its opaque id, never its key."""
    return reverse(name, args=[game.pk, room_ref(game, key)])


def page_text(body):
    """A page's visible text: no tags, scripts or styles, entities decoded, spaces collapsed,
    typographic apostrophes made plain."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text).replace("\u2019", "'")
