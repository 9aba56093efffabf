"""The day's votes as the public thread shows them: the forum-style count (W-4) and the
history of every public vote."""

from dataclasses import dataclass, field

from games.engine.votes import majority

from ..models import DAY_VOTES, Game, GameEvent


@dataclass
class VoteCount:
    rows: list = field(default_factory=list)  # (target, voters, L-n)
    not_voting: list = field(default_factory=list)
    living: int = 0
    needed: int = 0


def vote_count(state) -> VoteCount:
    """The forum-style count from the engine's tally: each candidate with votes, voters
    and how many more it takes (L-n), the not-voting list, and the majority (W-4)."""
    living = [s.name for s in state.seats if s.living]
    needed = majority(len(living))
    count = VoteCount(living=len(living), needed=needed)
    voted = set()
    for target, voters in state.tally():
        count.rows.append((target, voters, needed - len(voters)))
        voted.update(voters)
    count.not_voting = [n for n in living if n not in voted]
    return count


def vote_history(game: Game) -> list[dict]:
    """Every public vote and withdrawal, in order, with its phase."""
    return list(
        GameEvent.objects.filter(game=game, kind__in=DAY_VOTES)
        .order_by("index")
        .values("phase", "kind", "data", "created_at")
    )
