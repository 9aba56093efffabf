"""How well the bots play: the skill settings every part of the lab names the same way.

`random` is the baseline (every bot votes and kills uniformly at random: the exact
random-lynch answer); the others are how much each side uses of what it knows and says.
"""

RANDOM = "random"
SKILLS = ("careless", "typical", "sharp")
ALL = (RANDOM, *SKILLS)
DEFAULT = "typical"
