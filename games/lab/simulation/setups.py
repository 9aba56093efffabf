"""A setup the lab can simulate: a ruleset, a number of seats, a deal and the options.

The deal has Game.deal's shape (games/deal.py, games/forms.py NewGameForm.clean):
- explicit: {"mode": "explicit", "cards": [{"character": c, "type": t} | {"role": r}, ...],
  "shuffle": bool};
- Witchhunt pool: {"mode": "pool", "characters": [...], "types": {type: count}};
- Werewolf pool: {"mode": "pool", "roles": [...], "werewolves": n, "specials": k}.
`SUGGESTED` holds the setups the docs' table and the lab page start from.
"""

import copy
import hashlib
import json
from dataclasses import dataclass, field

from games.deal import deal_problems, errors_only
from games.engine import CHARACTERS

SIZES = (8, 12, 16, 24, 48)
RULESET_LABELS = {"witchhunt": "Witchhunt", "werewolf": "Werewolf"}


@dataclass(frozen=True)
class Setup:
    ruleset: str
    seats: int
    deal: dict
    options: dict
    # A display name only: two setups that play the same have the same key whatever
    # they are called.
    name: str = field(default="", compare=False)

    def key(self) -> str:
        """A stable hash of what decides the games (for caching estimates)."""
        body = json.dumps(
            [self.ruleset, self.seats, self.deal, self.options],
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(body.encode()).hexdigest()[:32]

    @classmethod
    def from_game_fields(cls, ruleset, seats, deal, options, name=""):
        """A setup from a Game row's fields (or NewGameForm's cleaned data); copied, so
        the caller's dicts can change afterwards."""
        return cls(ruleset, int(seats), copy.deepcopy(deal), copy.deepcopy(options or {}), name)

    def label(self) -> str:
        return self.name or f"{RULESET_LABELS.get(self.ruleset, self.ruleset)} {self.seats}"

    def slug(self) -> str:
        """The command line's name for a suggested setup: "witchhunt-12"."""
        return f"{self.ruleset}-{self.seats}"

    def as_dict(self) -> dict:
        return {
            "ruleset": self.ruleset,
            "seats": self.seats,
            "deal": copy.deepcopy(self.deal),
            "options": copy.deepcopy(self.options),
            "name": self.name,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Setup":
        return cls.from_game_fields(
            data["ruleset"], data["seats"], data["deal"], data.get("options"), data.get("name", "")
        )


# Witchhunt per the rules: two thirds or more Villagers ("Villager", the glossary), split
# between Elders and Juniors; Holy Villagers, Spies to trick the Coven, and Lover pairs (at
# most two, W-23) from 24 players. Every character is in the pool, so each game deals a
# different town. The counts are balanced (issue 32): with typical bots the Village wins
# 40-60% of the games at each size (docs/lab.md has the table) - fewer Witches than the
# quarter the silent bots of before needed, since a village that talks finds them.
WITCHHUNT_TYPES = {
    8: {"elder_witch": 1, "junior_witch": 1, "holy_villager": 3, "village_spy": 1},
    12: {"elder_witch": 2, "junior_witch": 1, "holy_villager": 3, "village_spy": 2},
    16: {"elder_witch": 2, "junior_witch": 1, "holy_villager": 2, "village_spy": 2},
    24: {
        "elder_witch": 3,
        "junior_witch": 1,
        "holy_villager": 3,
        "village_spy": 2,
        "village_lover": 2,
    },
    48: {
        "elder_witch": 5,
        "junior_witch": 4,
        "holy_villager": 6,
        "village_spy": 3,
        "village_lover": 4,
    },
}
# Werewolf: the Seer and the Witch always, more specials as the town grows, and as many
# Werewolves as keep typical play within 40-60% for the Village (issue 32): a Seer who
# shares her results is worth more to a talking village as the town grows, so the pack's
# share falls from one in four at 8 to one in twelve at 48. No wildcard: the bots cannot
# read a Fool or a Were-Hamster, who then take a large share of the bot games
# (docs/lab.md); a deck with them is a JSON setup away. Every listed special is dealt.
WEREWOLF_DECKS = {
    8: (2, ["seer", "witch"]),
    12: (2, ["seer", "witch", "matchmaker"]),
    16: (3, ["seer", "witch", "thief"]),
    24: (3, ["seer", "witch", "matchmaker", "warlock", "thief", "crone"]),
    48: (4, ["seer", "witch", "matchmaker", "warlock", "thief", "crone"]),
}


def _witchhunt(n):
    types = dict(WITCHHUNT_TYPES[n])
    types["basic_villager"] = n - sum(types.values())
    deal = {"mode": "pool", "characters": sorted(CHARACTERS), "types": types}
    options = {"stalemate_cycles": 3, "public_setup": True}
    return Setup("witchhunt", n, deal, options, f"Witchhunt {n} (suggested)")


def _werewolf(n):
    wolves, specials = WEREWOLF_DECKS[n]
    deal = {"mode": "pool", "roles": specials, "werewolves": wolves, "specials": len(specials)}
    return Setup("werewolf", n, deal, {"reveal_on_death": False}, f"Werewolf {n} (suggested)")


SUGGESTED: dict[str, list[Setup]] = {
    "witchhunt": [_witchhunt(n) for n in SIZES],
    "werewolf": [_werewolf(n) for n in SIZES],
}


def suggested(ruleset: str, seats: int) -> Setup | None:
    return next((s for s in SUGGESTED.get(ruleset, []) if s.seats == seats), None)


def find_suggested(ref: str) -> Setup | None:
    """A suggested setup by slug ("witchhunt-12") or name ("Witchhunt 12 (suggested)")."""
    ref = ref.strip().lower()
    for setups in SUGGESTED.values():
        for s in setups:
            if ref in (s.slug(), s.name.lower(), s.label().lower().removesuffix(" (suggested)")):
                return s
    return None


def problems(setup: Setup) -> list[str]:
    """Why `setup` cannot be played (games/deal.py's errors; its warnings are no bar)."""
    if setup.ruleset not in RULESET_LABELS:
        return [f"Unknown ruleset {setup.ruleset!r}."]
    if setup.seats < 2:
        return ["A setup needs two seats or more."]
    found = deal_problems(setup.ruleset, setup.deal, setup.seats)
    return errors_only(found)
