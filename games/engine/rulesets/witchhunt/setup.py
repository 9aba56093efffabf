"""Witchhunt setups: reading them, checking them (W-23) and the Day 1 knowledge (W-24)."""

from ...errors import RecordError
from ...words import CardName, refusal
from ..base import parse_options, parse_players, parse_seed
from .cards import CHARACTERS, HOLY, TYPES

DEFAULT_OPTIONS = {
    "archangel_cards": None,  # W-19: None means floor(seats / 10)
    "stalemate_cycles": 3,  # W-69a: 0 for never
    "public_setup": True,  # W-23: characters in play and type counts are public
}


def setup_problems(setup):
    """Every problem with a setup at once: a list of (level, refusal), level "error" or
    "warning". `setup` is a record's setup part: players, lovers (and options). Each
    problem is a refusal (`str()` the English, worded for a reader by the site); the cards
    it names are `CardName`s, the seats' names and numbers are shown as given."""
    problems = []

    def error(problem):
        problems.append(("error", problem))

    players = setup.get("players") or []
    if not players:
        error(refusal("a game needs players"))
    seen_chars = {}
    counts = {t: 0 for t in TYPES}
    names = set()
    for p in players:
        name, char, typ = p.get("name"), p.get("character"), p.get("type")
        if name in names:
            error(refusal("%(name)s is listed twice", {"name": name}))
        names.add(name)
        if char not in CHARACTERS:
            error(
                refusal(
                    "%(name)s: %(value)s is not a Witchhunt character",
                    {"name": name, "value": repr(char)},
                )
            )
        elif char in seen_chars:
            error(
                refusal(
                    "%(card)s is dealt twice (%(first)s and %(second)s); characters are unique",
                    {"card": _card(char), "first": seen_chars[char], "second": name},
                )
            )
        else:
            seen_chars[char] = name
        if typ not in TYPES:
            error(
                refusal(
                    "%(name)s: %(value)s is not a player type", {"name": name, "value": repr(typ)}
                )
            )
            continue
        counts[typ] += 1
        if char in HOLY and typ != "holy_villager":
            error(
                refusal(
                    "%(name)s: %(card)s is Holy and must be a Holy Villager (W-22)",
                    {"name": name, "card": _card(char)},
                )
            )
        if typ == "holy_villager" and char in CHARACTERS and char not in HOLY:
            error(
                refusal(
                    "%(name)s: a Holy Villager must hold a Holy character (W-22)", {"name": name}
                )
            )
    by_name = {p.get("name"): p for p in players}
    lovers = setup.get("lovers") or []
    in_pairs = {}
    for pair in lovers:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or pair[0] == pair[1]:
            error(
                refusal(
                    "a Lover pair must name two different players: %(pair)s", {"pair": repr(pair)}
                )
            )
            continue
        for name in pair:
            if name not in by_name:
                error(refusal("Lover %(value)s is not a player", {"value": repr(name)}))
            elif by_name[name].get("type") != "village_lover":
                error(refusal("Lover %(name)s is not a Village Lover", {"name": name}))
            if name in in_pairs:
                error(refusal("%(name)s is in two Lover pairs", {"name": name}))
            in_pairs[name] = pair
    if len(lovers) > 2:
        error(refusal("at most two Lover pairs"))
    for p in players:
        if p.get("type") == "village_lover" and p.get("name") not in in_pairs:
            error(refusal("Village Lover %(name)s is in no Lover pair", {"name": p.get("name")}))
    witches = counts["elder_witch"] + counts["junior_witch"]
    villagers = len(players) - witches
    if players and witches < 1:
        error(refusal("a game needs at least one Witch"))
    if witches and witches >= villagers:
        error(
            refusal(
                "Witches must be fewer than Villagers (%(witches)s Witches, "
                "%(villagers)s Villagers)",
                {"witches": witches, "villagers": villagers},
            )
        )
    if players and villagers * 3 < len(players) * 2 and witches < villagers:
        problems.append(
            (
                "warning",
                refusal(
                    "fewer than two thirds Villagers (%(villagers)s of %(seats)s); the rules "
                    "expect two thirds or more",
                    {"villagers": villagers, "seats": len(players)},
                ),
            )
        )
    return problems


def _card(char):
    return CardName(char, CHARACTERS[char][1])


def _cards(p, where):
    # The usual player (name, already read, a known character and type): one test.
    char, typ = p.get("character"), p.get("type")
    if len(p) == 3 and type(char) is str and char in CHARACTERS and type(typ) is str:
        if typ in TYPES:
            return char, typ
    for key in ("character", "type"):
        if key not in p:
            raise RecordError(f"{where}: missing {key!r}")
    if p["character"] not in CHARACTERS:
        raise RecordError(f"{where}: unknown character {p['character']!r}")
    if p["type"] not in TYPES:
        raise RecordError(f"{where}: unknown type {p['type']!r}")
    extra = set(p) - {"name", "character", "type"}
    if extra:
        raise RecordError(f"{where}: unexpected keys {sorted(extra)}")
    return p["character"], p["type"]


def read_setup(record):
    """Parse and check a record's setup. Returns (seed, options, players, lovers, warnings).

    Raises RecordError on the first error (W-23)."""
    seed = parse_seed(record)
    options = parse_options(record, DEFAULT_OPTIONS)
    players = parse_players(record, _cards)
    lovers = record.get("lovers", [])
    if lovers is None:
        lovers = []
    if not isinstance(lovers, list):
        raise RecordError("lovers: must be a list of pairs")
    setup = {
        "players": [{"name": n, "character": c, "type": t} for n, (c, t) in players],
        "lovers": lovers,
    }
    problems = setup_problems(setup)
    errors = [m for level, m in problems if level == "error"]
    if errors:
        raise RecordError(f"setup: {errors[0]}")
    warnings = [str(m) for level, m in problems if level == "warning"]
    return seed, options, setup["players"], [tuple(p) for p in lovers], warnings
