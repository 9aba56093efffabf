"""A job's games as rounds of chunks: which games each round plays, and what the chunks
it played add up to. Plain data throughout (the state is kept in the cache between rounds,
games/lab/services/run.py), the same whether the chunks run here or as Celery tasks.

What a job plays, in order (its `pending` segments, each [skill, seats, start, stop]; seats
0 is the setup itself, else the setup scaled to that size):

- games 0..first of the setup with typical bots: the first round splits them into `ahead`
  chunks under a deadline (LAB_FIRST_SECONDS less the time a chart takes), so the first
  estimate holds what every worker played by then; the games a chunk left come next;
- the skill band: `band_games` of them again with careless bots, and with sharp ones;
- each other size's games (typical bots);
- the setup's games on to `games`, unless LAB_MAX_SECONDS are spent first (then the games
  played are the answer: a slow setup of many seats); everything before is always played.

A round is at most `ahead` chunks (LAB_CHUNKS_AHEAD). The next is asked for only when
the last has returned, so a second job's chunks queue between this job's rounds: jobs
started together take turns on the workers rather than one waiting for the other to end.
A chunk plays about `seconds` (LAB_CHUNK_SECONDS) of games, sized from the rate its setup
and skill played at before.
"""

import math

from games.lab.simulation.chunks import tally_of
from games.lab.simulation.estimate import Tally
from games.lab.simulation.skills import DEFAULT

BAND = ("careless", "sharp")
FIRST_CHUNK = 20  # games a chunk plays of a setup whose speed is not known yet
MAX_CHUNK = 2000


def key(skill: str, seats: int) -> str:
    return f"{skill}/{seats}"


def initial(plan, started: float) -> dict:
    """The state of a job of `plan` (jobs.Plan) begun at `started` (time.time())."""
    band = plan.band_games
    pending = [[DEFAULT, 0, 0, plan.first]]
    pending += [[skill, 0, 0, band] for skill in BAND if band]
    pending += [[DEFAULT, n, 0, plan.size_games] for n in plan.sizes]
    if plan.games > plan.first:
        pending.append([DEFAULT, 0, plan.first, plan.games])
    return {
        "started": started,
        "pending": pending,
        "tallies": {},
        "rates": {},
        "round": 0,
        "outstanding": [],
        "hosts": [],
        "first_games": None,
        "first": plan.first,
    }


def next_round(
    state: dict, now: float, *, ahead: int, first_due: float, until: float, seconds: float = 2.0
) -> list:
    """The chunks of the next round (each {"skill", "seats", "start", "stop", "deadline",
    "least"}), kept in the state as outstanding; [] when the job has played everything (or
    its time, `until`, is spent and only refining is left). The first round's chunks stop
    at `first_due`."""
    if state["round"] and now >= until:
        state["pending"] = [s for s in state["pending"] if not _refining(state, s)]
    specs = _first_round(state, ahead, first_due) if not state["round"] else []
    while len(specs) < ahead and state["pending"]:
        skill, seats, start, stop = segment = state["pending"][0]
        stop = min(stop, start + _chunk_games(state, key(skill, seats), seconds))
        specs.append(_spec(skill, seats, start, stop))
        segment[2] = stop
        if stop >= segment[3]:
            state["pending"].pop(0)
    state["round"] += 1
    state["outstanding"] = specs
    return specs


def _refining(state, segment) -> bool:
    """Whether `segment` refines the setup's own estimate past its first games: what a job
    out of time leaves."""
    skill, seats, start, _ = segment
    return skill == DEFAULT and not seats and start >= state["first"]


def _first_round(state, ahead, due):
    """The setup's first games in `ahead` chunks under the deadline; the first chunk plays
    one game at least, so a first estimate is never empty."""
    skill, seats, start, stop = state["pending"].pop(0)
    size = math.ceil((stop - start) / ahead)
    specs = []
    for first in range(start, stop, size):
        spec = _spec(skill, seats, first, min(stop, first + size))
        specs.append({**spec, "deadline": due, "least": 0 if specs else 1})
    return specs


def _spec(skill, seats, start, stop):
    return {"skill": skill, "seats": seats, "start": start, "stop": stop}


def _chunk_games(state, name, seconds) -> int:
    games, took = state["rates"].get(name) or [0, 0.0]
    if games < FIRST_CHUNK or took <= 0:
        return FIRST_CHUNK
    return max(1, min(MAX_CHUNK, round(games / took * seconds)))


def absorb(state: dict, results: list) -> int:
    """Add the outstanding round's `results` (its chunks' plain tallies, in the round's
    order) to the state; the games a chunk left (past its deadline) go back to the head of
    what is pending. Returns the games the round played."""
    gaps, played = [], 0
    for spec, result in zip(state["outstanding"], results, strict=True):
        name = key(spec["skill"], spec["seats"])
        tally = tally_of(state["tallies"].get(name) or {"wins": {}, "days": {}})
        chunk = tally_of(result)
        tally.merge(chunk)
        state["tallies"][name] = {"wins": dict(tally.wins), "days": _days(tally)}
        games = result["reached"] - result["start"]
        played += games
        # The speed so far, summed over chunks: one short chunk's (a first chunk of a game
        # or two) says little.
        so_far = state["rates"].get(name) or [0, 0.0]
        state["rates"][name] = [so_far[0] + games, so_far[1] + result["seconds"]]
        if result["reached"] < spec["stop"]:
            gaps.append([spec["skill"], spec["seats"], result["reached"], spec["stop"]])
        host = result.get("host")
        if host and host not in state["hosts"]:
            state["hosts"].append(host)
    state["pending"] = gaps + state["pending"]
    state["outstanding"] = []
    return played


def _days(tally):
    return {str(d): n for d, n in tally.days.items()}


def tally(state: dict, skill: str = DEFAULT, seats: int = 0) -> Tally:
    return tally_of(state["tallies"].get(key(skill, seats)) or {"wins": {}, "days": {}})


def played(state: dict) -> int:
    return sum(sum(t["wins"].values()) for t in state["tallies"].values())


def complete(state: dict, skill: str, seats: int = 0) -> bool:
    """Whether every game of (skill, seats) the job asked for has been played."""
    name = key(skill, seats)
    waiting = state["pending"] + state["outstanding"]
    return name in state["tallies"] and not any(
        key(s[0], s[1]) == name if isinstance(s, list) else key(s["skill"], s["seats"]) == name
        for s in waiting
    )
