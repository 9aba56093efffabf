"""How well the bots play: one name for both sides of a game.

- `random`: the baseline of the Braverman–Etesami–Mossel random-lynch model. Each day the
  first voter names a uniformly random other living player and every other seat joins
  that wagon; the killers' night victim is a uniformly random non-member; nobody uses a
  power or says anything (random_policy.py). Its Village share for plain Villagers
  against Werewolves is known exactly (tests/lab/test_random_lynch.py).
- `careless`: close to the lab's first bots, nearly silent. A villager follows the
  leading wagon three times in four, else votes its most suspected; it heeds the claims
  once in four. A checker speaks up only on finding a killer (half the time each day).
  Evil never fakes a claim and kills at random.
- `typical`: a checker comes out on Day 2 (at once if another claims its card) and
  shares every result; villagers weigh the claims in their belief (belief.py) nearly
  always, discount a contested card's, distrust a claimant the killers keep sparing, and
  vote for the player worth most between its chance of being evil and its wagon's
  nearness to a majority. Half the games, one member of the evil team fakes a check on
  Day 2 and frames villagers; the killers go for a claimed checker first, else for a
  victim the village voted for and they did not (a night death clears its victim and
  marks who voted for it).
- `sharp`: as typical, and more: villagers weigh both claimants of a contested card as
  suspects and read who voted beside a player believed evil; a player seen Village who
  named a suspect is heard. The evil team fakes every game, at once to counter a real
  checker (framing her), starts its wagons on whom the talk suspects, and kills the
  player the town trusts most once no claimed checker is left.

Each side of a game plays the same skill; the lab's band (careless .. sharp) is the
Village's share when both sides play carelessly, and when both play sharply.
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
    follow: float  # careless (herd 0): a villager joins the leading wagon
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
    sly: bool  # the killers start wagons on whom the talk suspects, kill the most trusted


PROFILES = {
    "careless": Skill(
        "careless",
        follow=0.75,
        believe=0.25,
        claim_found=0.5,
        claim_day=0,
        counter=False,
        fake=0.0,
        fake_day=0,
        fake_counter=False,
        hunt=False,
        contest=0.0,
        pairs=False,
        confident=0.9,
        herd=0.0,
        sly=False,
    ),
    "typical": Skill(
        "typical",
        follow=0.5,
        believe=0.85,
        claim_found=1.0,
        claim_day=2,
        counter=True,
        fake=0.5,
        fake_day=2,
        fake_counter=False,
        hunt=True,
        contest=0.5,
        pairs=False,
        confident=0.6,
        herd=0.6,
        sly=False,
    ),
    "sharp": Skill(
        "sharp",
        follow=0.3,
        believe=1.0,
        claim_found=1.0,
        claim_day=2,
        counter=True,
        fake=1.0,
        fake_day=2,
        fake_counter=True,
        hunt=True,
        contest=1.5,
        pairs=True,
        confident=0.45,
        herd=0.4,
        sly=True,
    ),
}


def profile(name: str) -> Skill:
    """The skill named `name` (one of SKILLS); ValueError otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown skill {name!r}: one of {', '.join(ALL)}") from None
