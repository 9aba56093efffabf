"""What a test asks of a site running in other processes, on the database DATABASE_URL
names: `python -m tests.site.site_probe records` prints every started game's downloaded
record and the result the engine replays from it; `... play GAME VOTER TARGET BODY` casts
a vote and writes a post there, as the game page's forms do, and prints what landed.

The test process computes `records()` on its own database the same way, to compare."""

import json
import sys


def records() -> dict[str, dict]:
    from games.archive.selectors.reveal import record_json
    from games.engine import records as engine_records
    from games.models import Game

    out = {}
    for game in Game.objects.exclude(status=Game.Status.OPEN).order_by("pk"):
        record = record_json(game)
        result, _ = engine_records.play(record)
        out[str(game.pk)] = {
            "status": game.status,
            "phase": game.phase,
            "record": record,
            "replayed": engine_records.dumps(result),
        }
    return out


def play(game_id: int, voter: str, target: str, body: str) -> dict:
    from games import services
    from games.models import Game, GameInput, Seat

    game = Game.objects.get(pk=game_id)
    user = Seat.objects.get(game=game, name=voter).user
    services.vote_cast(game=game, user=user, target=target)
    post = services.post_create(game=game, user=user, body=body)
    vote = GameInput.objects.filter(game=game).order_by("-index").first()
    return {"vote": vote.step, "post": post.number, "body": post.body}


def main(argv: list[str]) -> None:
    import django

    django.setup()
    if argv[0] == "records":
        print(json.dumps(records()))
    elif argv[0] == "play":
        print(json.dumps(play(int(argv[1]), *argv[2:5])))
    else:
        raise SystemExit(f"unknown command {argv[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
