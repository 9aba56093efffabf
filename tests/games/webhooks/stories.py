"""Hearing a game's stories in the tests: the receivers connected and a listener that
builds each story as a destination would, at once, inside the write's transaction, in
each language asked for. And the two whole games the story tests play through the
services, a Witchhunt and a Werewolf one, each to its end."""

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

import time_machine

from games import queue, services
from games.mapping import engine_state
from games.models import Game
from games.services import sweep
from games.webhooks import receivers, story
from tests.games.afterlife_cast import AFTERLIFE_CAST
from tests.games.conftest import make_game, users_for


@dataclass(frozen=True)
class Heard:
    game: int | None
    event: str
    stories: dict  # language -> Story

    @property
    def en(self):
        return self.stories["en"]


@contextmanager
def told(languages=("en",)):
    """The stories the receivers announce, as a list that grows (Heard)."""
    heard = []

    def sink(game, event, build):
        built = {language: build(language) for language in languages}
        heard.append(Heard(game.pk if game is not None else None, event, built))

    connected = any(r.function is receivers.phase_began for r in queue.receivers(queue.PHASE_BEGAN))
    receivers.connect()
    story.listen(sink)
    try:
        yield heard
    finally:
        story._sinks.remove(sink)
        if not connected:  # the app's own connection, once installed, stays
            receivers.disconnect()


def near_sweep(game, before=timedelta(minutes=30), look=lambda: None):
    """The clock's sweep `before` the game's deadline, at that moment (a night's midnight
    passes too, W-3): it tells of a deadline near. `look()` is called at that moment."""
    game.refresh_from_db()
    with time_machine.travel(game.deadline_at - before, tick=False):
        counts = sweep.clock_sweep(share=False)
        look()
    return counts


def _fresh(game):
    game.refresh_from_db()
    return game


def lynch(game, users, target, after=lambda game, users: None):
    """The living vote for `target` one by one until the day ends (W-4) or the game does;
    `after(game, users)` after each vote."""
    day = _fresh(game).phase
    for seat in [s.name for s in engine_state(game).seats if s.living and s.name != target]:
        if _fresh(game).phase != day or game.status == Game.Status.FINISHED:
            break
        services.vote_cast(game=game, user=users[seat], target=target)
        after(game, users)
    assert _fresh(game).phase != day or game.status == Game.Status.FINISHED, target


# --- a Witchhunt game to its end -------------------------------------------------------------
# The afterlife cast (Bob and Hal the Elders); the characters in play are secret.
WITCHHUNT_CAST = AFTERLIFE_CAST


def witchhunt_game(moderator, after=lambda game, users: None):
    """Day 1 the town lynches Bob; Night 1 Hal's Coven kills Ann, Ivy looks at Jon; Day 2
    the moderator extends the day, Dan votes Hal and withdraws, then the town lynches Hal:
    the Village wins. `after(game, users)` runs after each step (a test's look)."""
    users = users_for(WITCHHUNT_CAST)
    game = make_game(moderator, users, cast=WITCHHUNT_CAST, start=False,
                     options={"public_setup": False})  # fmt: skip
    after(game, users)
    game = services.game_start(game=_fresh(game), by=moderator)
    after(game, users)
    near_sweep(game, look=lambda: after(game, users))
    services.vote_cast(game=_fresh(game), user=users["ann"], target="bob")
    after(game, users)
    lynch(_fresh(game), users, "bob", after)
    services.action_submit(game=_fresh(game), user=users["ivy"], action="ability", targets=["jon"])
    services.action_submit(game=_fresh(game), user=users["hal"], action="coven", target="ann")
    after(game, users)
    services.phase_advance(game=_fresh(game), by=moderator)
    after(game, users)
    services.clock_extend(game=_fresh(game), by=moderator, delta=timedelta(hours=2))
    near_sweep(game, look=lambda: after(game, users))
    services.vote_cast(game=_fresh(game), user=users["dan"], target="hal")
    after(game, users)
    services.vote_withdraw(game=_fresh(game), user=users["dan"])
    after(game, users)
    lynch(_fresh(game), users, "hal", after)
    return _fresh(game), users


# --- a Werewolf game to its end ----------------------------------------------------------------
WOLF_CAST = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "werewolf", ""),
             ("Dan", "villager", ""), ("Eve", "villager", ""), ("Fay", "villager", ""),
             ("Gus", "villager", "")]  # fmt: skip


def werewolf_game(moderator, after=lambda game, users: None):
    """Day 1 the town lynches Gus; Night 1 the pack kills Dan (the Seer looks at Bob); Day 2
    the town lynches Bob; Night 2 Cat kills Eve (the Seer looks at Cat); Day 3 the town
    lynches Cat: the Village wins. Each night the clock's sweep passes midnight (W-3)."""
    users = users_for(WOLF_CAST)
    game = make_game(moderator, users, cast=WOLF_CAST, ruleset="werewolf")
    after(game, users)
    nights = (("gus", "bob", ("bob", "cat"), "dan"), ("bob", "cat", ("cat",), "eve"))
    for target, looked_at, wolves, victim in nights:
        lynch(_fresh(game), users, target, after)
        services.action_submit(game=_fresh(game), user=users["ann"], action="ability",
                               targets=[looked_at])  # fmt: skip
        for wolf in wolves:
            services.action_submit(game=_fresh(game), user=users[wolf], action="pack",
                                   target=victim)  # fmt: skip
        near_sweep(game, look=lambda: after(game, users))
        services.phase_advance(game=_fresh(game), by=moderator)
        after(game, users)
    lynch(_fresh(game), users, "cat", after)
    return _fresh(game), users
