"""Werewolf setups: reading and checking them (the WW setup checks)."""

from ...errors import RecordError
from ..base import parse_options, parse_players, parse_seed
from .roles import REPEATABLE, ROLES

DEFAULT_OPTIONS = {"reveal_on_death": False}  # WW-3


def setup_problems(setup):
    """Every problem with a setup at once, as (level, message)."""
    problems = []
    players = setup.get("players") or []
    if not players:
        problems.append(("error", "a game needs players"))
    seen = {}
    wolves = 0
    for p in players:
        role = p.get("role")
        if role not in ROLES:
            problems.append(("error", f"{p.get('name')}: {role!r} is not a Werewolf role"))
            continue
        wolves += role == "werewolf"
        if role not in REPEATABLE:
            if role in seen:
                problems.append(
                    (
                        "error",
                        f"{ROLES[role][1]} is dealt twice ({seen[role]} and "
                        f"{p.get('name')}); it is a single card",
                    )
                )
            seen[role] = p.get("name")
    if players and wolves < 1:
        problems.append(("error", "a game needs at least one Werewolf"))
    if wolves and wolves >= len(players) - wolves:
        problems.append(
            ("error", f"Werewolves must be fewer than everyone else ({wolves} of {len(players)})")
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
        raise RecordError("setup: " + errors[0])
    return seed, options, players
