"""The load benchmark's rows (load.py runs this as `python -m games.benchmarks.loadseed
COMMAND` with the production settings and the benchmark's own database and Redis, never
the developer's): `seed` makes the players, games, thread and sessions; `facts` reads back
what the votes did; `lock` times a vote's service call, which holds the game row's lock.
Each prints one line of JSON.

Everything is written by the services, as the site writes it; the sessions are made with
Django's session machinery, as `login()` makes them."""

import argparse
import json
import random
import statistics
import time

SEATS = 48  # the bench record's 48 cards (games/benchmarks/data)
POST_LINES = (
    "> **{a}** wrote in #{n}:\n> I was with {b} all night, and they can vouch for me.\n\n"
    "I don't buy it, *{a}*. My reads so far:\n\n- {b}: town\n- {c}: ~~scum~~ null\n",
    "1. {a} voted {b} on day 1, then **unvoted** when they claimed.\n"
    "2. The [night post](https://example.com/games/1/#p{n}) changed {c}'s reads.\n\n"
    "`vote: {b}`",
    "Quiet today. {a}, where were you last night? {b} and {c} have been hiding behind "
    "long posts, and nobody asked {a} for a claim yet.",
)


def _users(prefix, n, password_hash=None):
    from accounts.models import User

    users = []
    for i in range(n):
        user = User.objects.create_user(
            f"{prefix}{i:02d}@example.com", player_name=f"{prefix.title()}{i:02d}"
        )
        if password_hash:
            # One hash for all: hashing each password would cost seconds of CPU apiece.
            user.password = password_hash
            user.save(update_fields=["password"])
        users.append(user)
    return users


def _onlookers(n, password):
    """Accounts that read but do not play, signed in through the sign-in page by the load
    tool, so their email addresses are verified (allauth's mandatory verification)."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password

    users = _users("reader", n, make_password(password))
    EmailAddress.objects.bulk_create(
        EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users
    )
    return users


def _session(user) -> str:
    """A signed-in session for `user`, as django.contrib.auth.login() stores it."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def _game(host, players, number):
    from games import services
    from games.benchmarks.engine import BENCH_RECORD_PATH

    record = json.loads(BENCH_RECORD_PATH.read_text())
    cards = [{k: p[k] for k in ("character", "type")} for p in record["players"]]
    game = services.game_create(
        host=host,
        ruleset="witchhunt",
        title=f"Load {number}",
        seats_count=len(cards),
        deal={"mode": "explicit", "cards": cards},
        seed=number,
    )
    for user in players:
        services.game_join(game=game, user=user)
    return services.game_start(game=game, by=host)


def seed(options):
    from django.conf import settings

    from accounts.models import User
    from games import services
    from games.models import Post
    from games.selectors import POSTS_PER_PAGE

    host = User.objects.create_user("host@example.com", player_name="Host")
    players = _users("load", SEATS)
    onlookers = _onlookers(options.onlookers, options.password)
    games = [_game(host, players, number) for number in range(1, options.games + 1)]
    main, rng, started = games[0], random.Random(2026), time.perf_counter()
    for n in range(options.posts):
        a, b, c = (p.player_name for p in rng.sample(players, 3))
        body = rng.choice(POST_LINES).format(a=a, b=b, c=c, n=max(1, n))
        services.post_create(game=main, user=players[n % SEATS], body=body)
    posting = time.perf_counter() - started
    thread = Post.objects.filter(game=main, thread="public").count()
    return {
        "games": [g.pk for g in games],
        "inputs": {str(g.pk): g.inputs_count for g in games},
        "seats": [p.player_key for p in players],
        "sessions": [_session(p) for p in players],
        "onlookers": [u.email for u in onlookers],
        "session_cookie": settings.SESSION_COOKIE_NAME,
        "thread_posts": thread,
        "per_page": POSTS_PER_PAGE,
        "posting_seconds": posting,
    }


def facts(options):
    """For each game: its phase, the votes stored since input `since`, the lynches of
    `phase`, and the public vote count (the game page's) by day."""
    from games.models import Game, GameEvent, GameInput
    from games.selectors import game_state_if_running, vote_count

    since = json.loads(options.since)
    out = {}
    for game in Game.objects.filter(pk__in=[int(k) for k in since]):
        start = since[str(game.pk)]
        inputs = GameInput.objects.filter(game=game, index__gte=start).order_by("index")
        state = game_state_if_running(game)
        count = vote_count(state) if state is not None and not state.night else None
        out[str(game.pk)] = {
            "phase": game.phase,
            "inputs_count": game.inputs_count,
            "votes": [
                [i.step["actor"], i.step.get("target")]
                for i in inputs
                if i.step.get("action") == "vote"
            ],
            "lynches": [
                e.data["target"]
                for e in GameEvent.objects.filter(game=game, kind="lynch", phase=options.phase)
            ],
            "count": {t: v for t, v, _ in count.rows} if count else None,
        }
    return out


def lock(options):
    """Seconds of `services.vote_cast` one at a time in game `game`: the game row is
    locked from its first query to its commit, so one game takes at most 1/t votes a
    second however many web servers there are. 12 voters move between the two `targets`
    (no majority forms)."""
    from games import services
    from games.models import Game, Seat

    game = Game.objects.get(pk=options.game)
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
    voters, targets = seats[:12], options.targets.split(",")
    times = []
    for n in range(options.votes):
        start = time.perf_counter()
        services.vote_cast(game=game, user=voters[n % 12].user, target=targets[n // 12 % 2])
        times.append(time.perf_counter() - start)
    times.sort()
    return {
        "votes": len(times),
        "median": statistics.median(times),
        "p95": times[int(0.95 * (len(times) - 1))],
    }


def main(argv=None):
    import django

    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("seed")
    one.add_argument("--games", type=int, default=1)
    one.add_argument("--posts", type=int, default=1000)
    one.add_argument("--onlookers", type=int, default=16)
    one.add_argument("--password", required=True)
    one = commands.add_parser("facts")
    one.add_argument("--since", required=True, help='JSON: {"game id": first input index}')
    one.add_argument("--phase", default="day 1")
    one = commands.add_parser("lock")
    one.add_argument("--game", type=int, required=True)
    one.add_argument("--votes", type=int, default=200)
    one.add_argument("--targets", required=True, help="two seat names, comma-separated")
    options = parser.parse_args(argv)
    django.setup()
    result = {"seed": seed, "facts": facts, "lock": lock}[options.command](options)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
