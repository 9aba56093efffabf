"""The calibration's test games as real site games: each played by the lab's bots, then
played again on the site, input by input through the services a game is played with
(`input_apply`), so that it is a finished Game row like any other and the page's
"finished games on this site" (selectors.lab_observed) reads it. For a test or a
development database: the games' players are calibration members of their own.

The site deals the game (as any game is dealt, from its seed), the bots play the game the
site dealt in the engine (its inputs recorded as the record's steps), and each of their
inputs is then applied on the site, so each step is accepted as it was; a game the bots
did not finish is rolled back.
"""

import random

from django.db import transaction

from accounts.models import User
from games import services
from games.engine.collector import collector_paused
from games.lab.simulation.calibration import drawn_skill
from games.lab.simulation.play import game_seed, play_game
from games.lab.simulation.setups import Setup
from games.mapping import setup_record
from games.models import Game
from games.services.base import game_locked

PLAYER_NAME = "Labbot%02d"  # the calibration's members: Labbot01, Labbot02, …
HOST_NAME = "Labhost"


def calibration_members(seats: int):
    """The calibration's host and `seats` players, made the first time (no password: no one
    signs in as them; no email but what every player is sent, to an address that cannot
    receive it)."""

    def member(name):
        user = User.objects.filter(player_name=name).first()
        if user is None:
            user = User(
                player_name=name,
                email=f"{name.lower()}@calibration.invalid",
                email_deadline_reminders=False,
                email_phase_changes=False,
                email_mentions=False,
            )
            user.set_unusable_password()
            user.save()
        return user

    return member(HOST_NAME), [member(PLAYER_NAME % (i + 1)) for i in range(seats)]


def bot_steps(record: dict, skill: str):
    """The engine setup `record` played by bots of `skill` (the rng seeded by the record's
    seed): (the engine's game at its end, the record's steps it accepted)."""
    steps = []

    def handle(game, name):
        if name is None:  # the Board's, asked once before play: record what is accepted
            accept = game.try_apply

            def recording(inp):
                why = accept(inp)
                if why is None:
                    steps.append(inp.to_step())
                return why

            game.try_apply = recording  # game.apply asks it too
        return game

    with collector_paused():
        game = play_game(record, random.Random(record["seed"]), handle=handle, skill=skill)
    return game, steps


class _Unfinished(Exception):
    """The bots did not finish the game: its rows are rolled back."""


def calibration_game_play(*, setup: Setup, seed: int, index: int, host, players) -> Game | None:
    """Test game `index` of `setup` as a finished site game, or None when the bots did not
    finish it (an unfinished game is no one's result, and leaves no row). Played once:
    asked again, the game already played is returned.

    The site deals it (its seed, game_seed(seed, index)) and the bots play the game the
    site dealt (mapping.setup_record: the cards as the site stored them), then each input
    they made is applied on the site."""
    title = f"Lab calibration: {setup.slug()} #{index} (seed {seed})"
    done = Game.objects.filter(host=host, title=title).first()
    if done is not None:
        return done
    try:
        with transaction.atomic():
            return _played(setup, seed, index, title, host, players)
    except _Unfinished:
        return None


def _played(setup, seed, index, title, host, players):
    game = services.game_create(
        host=host,
        ruleset=setup.ruleset,
        title=title,
        seats_count=setup.seats,
        deal=setup.deal,
        options=setup.options,
        seed=game_seed(seed, index),
    )
    for user in players[: setup.seats]:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=host)
    played, steps = bot_steps(setup_record(game), drawn_skill(seed, index))
    if not played.over:
        raise _Unfinished
    for step in steps:
        game = game_locked(game)
        services.input_apply(game=game, step=step, by=host)
    game.refresh_from_db()
    if game.status != Game.Status.FINISHED or game.winner != played.winner:
        raise RuntimeError(f"{game.title}: the site's game did not end as the bots' did")
    return game
