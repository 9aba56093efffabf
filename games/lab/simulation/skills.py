"""How well the bots play: one name for both sides of a game.

- `random`: the baseline of the Braverman–Etesami–Mossel random-lynch model. Each day the
  first voter names a uniformly random other living player and every other seat joins
  that wagon; the killers' night victim is a uniformly random non-member; nobody uses a
  power or says anything (random_policy.py). Its Village share for plain Villagers
  against Werewolves is known exactly (tests/lab/test_random_lynch.py).
- `careless`: the lab's first bots, nearly silent. A villager follows the leading wagon
  three times in four; a checker speaks up only on finding a killer (half the time), and
  villagers act on a claimed result once in four. Evil never fakes a claim.
- `typical`: a checker claims its card once it has found a killer (or by Day 3 with
  what it has) and shares every result after; villagers act on claimed results, discount
  those of a contested card, and follow a wagon half the time when nothing else speaks.
  One member of the evil team (the pack, the Coven) fake-claims a check on Day 2 half
  the time and frames a villager; the killers go for a claimed checker first.
- `sharp`: as typical, and more: a checker also claims at once when someone else claims
  its card; villagers weigh both claimants of a contested card as suspects, read who
  voted alongside a player shown evil, and seldom follow a wagon blind. The evil faker
  claims from Day 1 whenever a real checker speaks (a counter-claim framing the real one)
  and on Day 2 otherwise; the killers spare no trusted player.
"""

from dataclasses import dataclass

RANDOM = "random"
SKILLS = ("careless", "typical", "sharp")
ALL = (RANDOM, *SKILLS)
DEFAULT = "typical"


@dataclass(frozen=True)
class Skill:
    """What a skill's bots use; the numbers are chances unless said otherwise."""

    name: str
    follow: float  # a villager with no confident suspect joins the leading wagon
    believe: float  # a villager takes the claims into account for a decision
    claim_found: float  # a checker claims once it has found a killer
    claim_day: int  # a checker claims by this day anyway (0: never)
    counter: bool  # a checker claims at once when another claims its card
    fake: float  # the evil team fields a fake checker
    fake_day: int  # the day the fake claims, if no real checker spoke first
    fake_counter: bool  # the fake claims at once to counter a real checker
    hunt: bool  # the killers go for claimed checkers and trusted players
    contest: float  # suspicion on each claimant of a contested card
    pairs: bool  # voting beside a player shown evil is suspicious
    confident: float  # the evil chance from which a villager posts its suspect (ESTIMATE)
    herd: float  # a wagon's pull on a villager's vote, at a majority (0: the old follow)


PROFILES = {
    "careless": Skill(
        "careless", 0.75, 0.25, 0.5, 0, False, 0.0, 0, False, False, 0.0, False, 0.9, 0.0
    ),
    "typical": Skill("typical", 0.5, 0.85, 1.0, 2, True, 0.5, 2, False, True, 0.5, False, 0.6, 0.6),
    "sharp": Skill("sharp", 0.3, 1.0, 1.0, 2, True, 1.0, 2, True, True, 1.5, True, 0.45, 0.4),
}


def profile(name: str) -> Skill:
    """The skill named `name` (one of SKILLS); ValueError otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown skill {name!r}: one of {', '.join(ALL)}") from None
