"""The day's votes as the public thread shows them: the forum-style count (W-4) and the
history of the public votes, a day at a time (the latest on the game page, each earlier
day on its own page), so no page lists every vote of a long game."""

from dataclasses import dataclass, field

from games.engine.votes import majority

from ..models import DAY_VOTES, Game, GameEvent
from ..narration import describe_event, phase_label


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


@dataclass
class VoteDay:
    day: int  # the day's number
    phase: str  # its phase ("day 3")
    votes: list[str]  # each vote and withdrawal in words, in order
    days: list  # (number, label) of every day so far, 1 … the latest: the links


def latest_day(game: Game) -> int:
    """The game's day: the one it is in, or by night the one just ended; 0 before Day 1."""
    word, _, number = game.phase.partition(" ")
    return int(number) if word in ("day", "night") and number.isdigit() else 0


def vote_history(game: Game, names: dict, day: int | None = None) -> VoteDay | None:
    """The public votes and withdrawals of day `day` (the latest by default), in order and
    in words; None for a day the game has not reached. One query, bounded by the day."""
    latest = latest_day(game)
    day = latest if day is None else day
    if not 1 <= day <= latest:
        return None
    phase = f"day {day}"
    votes = (
        GameEvent.objects.filter(
            game=game, phase=phase, kind__in=DAY_VOTES, audience=GameEvent.Audience.PUBLIC
        )
        .order_by("index")
        .values_list("kind", "data")
    )
    return VoteDay(
        day=day,
        phase=phase,
        votes=[describe_event(kind, data, names) for kind, data in votes],
        days=[(n, phase_label(f"day {n}")) for n in range(1, latest + 1)],
    )
