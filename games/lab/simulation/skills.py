"""How well the bots play: the names only (the bots' part of the lab fills in what each
means). `random` is the baseline every bot votes and kills uniformly at random in."""

RANDOM = "random"
SKILLS = ("careless", "typical", "sharp")
ALL = (RANDOM, *SKILLS)
DEFAULT = "typical"
