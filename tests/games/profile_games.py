"""Games played to the end through the services, for the profiles and the archive (issue 16).

- `village_wins`: conftest's named cast, with Eve replaced by Newbie on Day 1: Bob (the
  Elder) lynched on Day 1, Hal (the Junior) on Day 2; the Village wins (W-70). Ann, Cat,
  Dan, Fay, Gus and Newbie win; Bob and Hal lose; Eve, replaced out, is not credited.
  Bob writes `COVEN_TALK` in the Coven's room and, dead, `AFTERLIFE_TALK` in the
  afterlife; Cat keeps a private note on Bob (`NOTE_KEPT`), Dan shares one (`NOTE_SHARED`).
- `wolf_lynched`: a three-seat Werewolf game whose Werewolf is lynched on Day 1.
"""

from games import services
from games.models import Game
from games.reading.services.notes import note_save
from tests.factories import UserFactory
from tests.games.conftest import make_game

COVEN_TALK = "Coven-talk-8120"
AFTERLIFE_TALK = "Afterlife-talk-8121"
NOTE_KEPT = "Kept-note-8122"
NOTE_SHARED = "Shared-note-8123"


def replace(game, seat_name, new_user):
    """The moderator's replacement (W-72): the service closes the old tenure, opens the new."""
    services.player_replace(game=game, seat_name=seat_name, new_user=new_user, by=game.host)


def village_wins(moderator, users, *, title="The named cast"):
    """The named cast played to the Village's win, Eve replaced by Newbie on Day 1."""
    game = make_game(moderator, users, title=title)
    newbie = users.get("newbie") or UserFactory(player_name="Newbie")
    users["newbie"] = newbie
    replace(game, "eve", newbie)
    services.room_post(game=game, user=users["bob"], room="coven", body=COVEN_TALK)
    note_save(game=game, user=users["cat"], seat="bob", read="scum", text=NOTE_KEPT,
                       shared=False)  # fmt: skip
    note_save(game=game, user=users["dan"], seat="bob", read="scum", text=NOTE_SHARED,
                       shared=True)  # fmt: skip
    for voter in ("ann", "cat", "dan", "newbie", "fay"):
        services.vote_cast(game=game, user=users[voter], target="bob")
    services.room_post(game=game, user=users["bob"], room="afterlife", body=AFTERLIFE_TALK)
    services.action_submit(game=game, user=users["ann"], action="ability", targets=["hal"])
    services.phase_advance(game=game, by=moderator)
    for voter in ("ann", "cat", "dan", "newbie"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "village"
    return game


WOLF_CAST = [("werewolf", "werewolf"), ("villager", "villager"), ("villager", "villager")]


def wolf_lynched(moderator, players, *, title="Three at the inn", reveal_on_death=True):
    """A three-seat Werewolf game: players[0] the Werewolf, lynched on Day 1 by the other
    two, Villagers who win."""
    game = wolf_running(moderator, players, title=title, reveal_on_death=reveal_on_death)
    wolf = players[0].player_key
    for voter in players[1:]:
        services.vote_cast(game=game, user=voter, target=wolf)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "village"
    return game


def wolf_running(moderator, players, *, title="Still at the inn", reveal_on_death=True):
    """The same three seats on Day 1 of a running Werewolf game (nobody has died)."""
    cast = [(p.player_name, role, "") for p, (role, _) in zip(players, WOLF_CAST, strict=True)]
    users = {p.player_key: p for p in players}
    game = make_game(
        moderator,
        users,
        cast=cast,
        ruleset="werewolf",
        title=title,
        options={"reveal_on_death": reveal_on_death},
    )
    return game
