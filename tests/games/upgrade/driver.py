"""Plays games through the services layer, for tests/games/test_upgrade_midgame.py.

The same file runs under two releases' code (PYTHONPATH names the tree, `python -P` keeps
this folder off the path), so it uses only what both offer: the services' names, the
mapping's record and the engine's replay. DATABASE_URL names the database.

    driver.py start    deal the games and play each up to its split (the previous release)
    driver.py finish   pass the deadline at the split by one clock sweep, then play the
                       rest of each game's steps
    driver.py new      deal the Summoner's game afresh and play all of it (the new release)
    driver.py dump     print every stored row of every game, as JSON

Each game is a game record in this folder: its players are dealt their cards in seat order,
its actors' steps go through `seat_input_apply`, the moderator's through `input_apply`, and
its deadlines and midnights pass as the clock passes them (`phase_advance` and
`midnight_pass` with the phase the clock saw and the time it is due).
"""

import datetime
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (record file, the index of the step at which the previous release stops). Each
# split is an "advance phase": the deadline that passes after the upgrade.
GAMES = {
    # W-8a: the Summoner names three, one is removed after midnight (the night that
    # resolves differently under revisions 2b and 3)
    "summoner": ("summoner.json", 9),
    # the Court, its Pauper, the Paladin's gifts (W-49 to W-54): Night 3 resolves after
    "court": ("court_long.json", 21),
    # W-73a: the King's Loose Cannon names the Pauper on Day 2, after the upgrade; the
    # Pauper joins the Court after the Cannon died (2b still tells him); then a stalemate
    "cannon": ("cannon.json", 2),
    # a Werewolf game: its Witch's potions (WW-7), Night 2 resolves after
    "werewolf": ("werewolf_potions.json", 15),
}
NEW_GAME = "summoner"
SECOND = datetime.timedelta(seconds=1)


def setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.test")
    import django

    django.setup()


def record_of(name):
    return json.loads((HERE / GAMES[name][0]).read_text())


def member(name):
    from accounts.models import User

    user = User.objects.filter(email=f"{name}@upgrade.example").first()
    if user is None:
        user = User.objects.create_user(email=f"{name}@upgrade.example", player_name=name)
    return user


def deal(name, title):
    """A running game of `name`'s record: its cards dealt in seat order, at Day 1."""
    from games import services

    record = record_of(name)
    if record["ruleset"] == "werewolf":
        cards = [{"role": p["role"]} for p in record["players"]]
    else:
        cards = [{"character": p["character"], "type": p["type"]} for p in record["players"]]
    game = services.game_create(
        host=member("host"),
        ruleset=record["ruleset"],
        title=title,
        seats_count=len(cards),
        seed=record["seed"],
        options=record.get("options") or {},
        deal={"mode": "explicit", "cards": cards, "shuffle": False},
    )
    for player in record["players"]:
        services.game_join(game=game, user=member(player["name"]))
    return services.game_start(game=game, by=member("host"))


def fresh(game):
    from games.models import Game

    return Game.objects.get(pk=game.pk)


def due(moment):
    from django.utils import timezone

    return max(moment or timezone.now(), timezone.now()) + SECOND


def play(game, step):
    """Apply one record step as the site would; a refused step changes nothing."""
    from games import services
    from games.engine import GameRuleError

    game = fresh(game)
    try:
        if step.get("advance") == "phase":
            services.phase_advance(game=game, expected_phase=game.phase, now=due(game.deadline_at))
        elif step.get("advance") == "midnight":
            services.midnight_pass(game=game, expected_phase=game.phase, now=due(game.midnight_at))
        elif "moderator" in step:
            services.input_apply(game=game, step=step, by=member("host"))
        else:
            own = {k: v for k, v in step.items() if k != "actor"}
            services.seat_input_apply(game=game, user=member(step["actor"]), step=own)
    except GameRuleError:
        pass
    talk(fresh(game))


def play_steps(game, steps):
    for step in steps:
        play(game, step)


def talk(game):
    """By day, the first living player says which day it is once (the thread's posts are
    part of what an upgrade must keep)."""
    from games import services
    from games.mapping import engine_state
    from games.models import Game, Post

    if game.status != Game.Status.RUNNING:
        return
    state = engine_state(game)
    body = f"It is {game.phase}."
    if state.night or Post.objects.filter(game=game, body=body).exists():
        return
    seat = next(s for s in state.seats if s.living)
    services.post_create(game=game, user=member(seat.name), body=body)


def games_by_title():
    from games.models import Game

    return {g.title: g for g in Game.objects.order_by("pk")}


def start():
    for name, (_, split) in GAMES.items():
        game = deal(name, name)
        talk(fresh(game))
        play_steps(game, record_of(name)["steps"][:split])


def finish():
    """The deadline at each game's split passes by one sweep of the clock, as beat would
    send it (every game is due); then each game's remaining steps."""
    from games import services

    games = games_by_title()
    before = {name: games[name].phase for name in GAMES}
    last = max(due(games[name].deadline_at) for name in GAMES)
    services.clock_sweep(now=last, share=False)
    games = games_by_title()
    for name, (_, split) in GAMES.items():
        assert games[name].phase != before[name], f"{name}: the sweep did not end its phase"
        talk(games[name])
        play_steps(games[name], record_of(name)["steps"][split + 1 :])


def new():
    game = deal(NEW_GAME, "new " + NEW_GAME)
    play_steps(game, record_of(NEW_GAME)["steps"])


def rows(queryset, skip=()):
    """Every field's stored value but the times (each run has its own clock)."""
    from django.db import models

    out = []
    for obj in queryset:
        row = {}
        for field in obj._meta.concrete_fields:
            if isinstance(field, (models.DateTimeField, models.DateField)):
                continue
            if field.name in skip:
                continue
            row[field.attname] = field.value_to_string(obj)
        out.append(row)
    return out


def dump():
    from django.test import Client
    from django.urls import reverse

    from games import models
    from games.engine import records
    from games.mapping import game_record

    try:  # since issue 28 the site's words in a thread are stored as meaning, worded when read
        from games.selectors.threads import post_said as said
    except ImportError:  # the previous release stored them as English text
        said = None

    out = {}
    client = Client()
    for title, game in games_by_title().items():
        # Rows are named by their place in the game, not their ids: the tables' ids count
        # every game's rows, so one game's difference would show in all that follow.
        events = []
        stored = game.events.order_by("index")
        for row, ev in zip(rows(stored, skip=("id",)), stored, strict=True):
            row["recipients"] = sorted(ev.recipients.values_list("name", flat=True))
            events.append(row)
        posts = []
        stored = game.posts.order_by("thread", "number")
        skip = ("id", "event", "reply_to", "words")
        for row, post in zip(rows(stored, skip=skip), stored, strict=True):
            row["event"] = post.event.index if post.event_id else None
            row["reply_to"] = post.reply_to.number if post.reply_to_id else None
            if said is not None:  # the site's words, as a reader reads them (issue 28)
                row["body"], row["body_html"] = said(post)
            posts.append(row)
        record = game_record(game)
        download = client.get(reverse("game_record", args=[game.pk]))
        out[title] = {
            "game": rows([game])[0],
            "seats": rows(game.seats.order_by("pk")),
            "inputs": rows(
                models.GameInput.objects.filter(game=game).order_by("index"), skip=("id",)
            ),
            "events": events,
            "posts": posts,
            "record": record,
            "replay": records.play(json.dumps(record))[0],
            "download": {
                "status": download.status_code,
                "json": json.loads(download.content) if download.status_code == 200 else None,
            },
        }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    setup()
    {"start": start, "finish": finish, "new": new, "dump": dump}[sys.argv[1]]()
