"""The vote moves of "since you last read": each day vote among the new public events,
with the wagons it changed (L-n: the votes a player still needs for a majority, W-4)."""

from games.engine import majority
from games.models import DAY_VOTES, GameEvent
from games.narration import phase_label

from ..narration import since as words

MAX_VOTE_MOVES = 40  # the latest shown; the rest are counted


def _death_of(row) -> str | None:
    """The player a public event takes out of the living, if any."""
    kind, data = row["kind"], row["data"]
    if kind == "lynch":
        return data.get("target")
    if kind == "death" or (kind == "public" and data.get("event") == "removed"):
        return data.get("player")
    return None


def _return_of(row) -> str | None:
    if row["kind"] == "public" and row["data"].get("event") == "returned":
        return row["data"].get("player")
    return None


def vote_moves(game, public, state, names, viewer) -> tuple[list, int]:
    """The day votes among the new public events, each with the wagons it changed (L-n:
    votes still needed for a majority of the living then, W-4). Each day's votes are
    replayed from its first (one query for those before the first shown), deaths voiding
    the votes of and on the dead as the engine's tally does; the living then are those of
    now, with the later deaths undone."""
    new_votes = [r for r in public if r["kind"] in DAY_VOTES]
    if not new_votes:
        return [], 0
    shown_from = public[0]["index"]
    earlier = list(
        GameEvent.objects.filter(
            game=game,
            audience=GameEvent.Audience.PUBLIC,
            phase__in={r["phase"] for r in new_votes},
            index__lt=shown_from,
            kind__in=(*DAY_VOTES, "lynch", "death", "public"),
        )
        .order_by("index")
        .values("index", "kind", "phase", "audience", "data")
    )
    living = {s.name for s in state.seats if s.living}
    living_at = {}
    for row in reversed(public):  # now, back to the boundary
        living_at[row["index"]] = len(living)
        if (dead := _death_of(row)) is not None:
            living.add(dead)
        if (back := _return_of(row)) is not None:
            living.discard(back)
    moves = []  # (phase, words)
    votes, day = {}, None
    for row in earlier + public:
        if row["kind"] == "phase" or row["phase"] != day:
            votes, day = {}, row["phase"]
        if (dead := _death_of(row)) is not None:
            votes.pop(dead, None)
            votes = {v: t for v, t in votes.items() if t != dead}
            continue
        if row["kind"] not in DAY_VOTES:
            continue
        voter = row["data"].get("voter")
        old = votes.get(voter)
        target = row["data"].get("target") if row["kind"] == "vote" else None
        if target:
            votes[voter] = target
        else:
            votes.pop(voter, None)
        if row["index"] < shown_from or old == target:
            continue
        need = majority(living_at[row["index"]])
        tally = list(votes.values())
        moves.append(
            (
                row["phase"],
                words.vote_move(
                    voter=voter,
                    old=old,
                    target=target,
                    left_target=need - tally.count(target) if target else None,
                    left_old=need - tally.count(old) if old else None,
                    names=names,
                    viewer=viewer,
                ),
            )
        )
    more = max(len(moves) - MAX_VOTE_MOVES, 0)
    groups = {}
    for phase, text in moves[more:]:
        groups.setdefault(phase, []).append(text)
    return [(phase_label(p), lines) for p, lines in groups.items()], more
