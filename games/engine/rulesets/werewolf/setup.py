"""Werewolf setups: reading and checking them (the WW setup checks)."""

from ...errors import RecordError
from ...words import CardName, refusal
from ..base import parse_options, parse_players, parse_seed
from .roles import REPEATABLE, ROLES

DEFAULT_OPTIONS = {"reveal_on_death": False}  # WW-3


def setup_problems(setup):
    """Every problem with a setup at once, as (level, refusal): see Witchhunt's."""
    problems = []

    def error(problem):
        problems.append(("error", problem))

    players = setup.get("players") or []
    if not players:
        error(refusal("a game needs players"))
    seen = {}
    wolves = 0
    for p in players:
        role = p.get("role")
        if role not in ROLES:
            error(
                refusal(
                    "%(name)s: %(value)s is not a Werewolf role",
                    {"name": p.get("name"), "value": repr(role)},
                )
            )
            continue
        wolves += role == "werewolf"
        if role not in REPEATABLE:
            if role in seen:
                error(
                    refusal(
                        "%(card)s is dealt twice (%(first)s and %(second)s); it is a single card",
                        {
                            "card": CardName(role, ROLES[role][1]),
                            "first": seen[role],
                            "second": p.get("name"),
                        },
                    )
                )
            seen[role] = p.get("name")
    if players and wolves < 1:
        error(refusal("a game needs at least one Werewolf"))
    if wolves and wolves >= len(players) - wolves:
        error(
            refusal(
                "Werewolves must be fewer than everyone else (%(werewolves)s of %(seats)s)",
                {"werewolves": wolves, "seats": len(players)},
            )
        )
    return problems


def _role(p, where):
    if "role" not in p:
        raise RecordError(f"{where}: missing 'role'")
    if p["role"] not in ROLES:
        raise RecordError(f"{where}: unknown role {p['role']!r}")
    extra = set(p) - {"name", "role"}
    if extra:
        raise RecordError(f"{where}: unexpected keys {sorted(extra)}")
    return p["role"]


def read_setup(record):
    seed = parse_seed(record)
    options = parse_options(record, DEFAULT_OPTIONS)
    players = [{"name": n, "role": r} for n, r in parse_players(record, _role)]
    errors = [m for level, m in setup_problems({"players": players}) if level == "error"]
    if errors:
        raise RecordError(f"setup: {errors[0]}")
    return seed, options, players
