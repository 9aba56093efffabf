"""The same setup at another size, for `by_size`.

- A Witchhunt pool keeps its proportions: each type's count is scaled to the new size and
  rounded (at least one Witch, the Holy at most the six Holy characters, the Lovers in
  pairs, at most two pairs, W-23); the Basic Villagers take the rest.
- A Werewolf pool keeps its Werewolves in proportion (at least one) and its specials (fewer
  when the seats cannot hold them); the Villagers take the rest.
- An explicit list keeps every card but the plain ones and changes how many Basic
  Villagers (Witchhunt; new ones get unused non-Holy characters in the card table's
  order) or Villagers (Werewolf) it has; it cannot shrink below its other cards.
"""

from dataclasses import replace

from games.engine import CHARACTERS, HOLY

from .setups import Setup


def _witchhunt_pool(deal, old, n):
    types = deal.get("types", {})
    out = {}
    for t in ("elder_witch", "junior_witch", "holy_villager", "village_spy"):
        if types.get(t):
            out[t] = max(0, round(types[t] * n / old))
    if types.get("elder_witch") and not out.get("elder_witch"):
        out["elder_witch"] = 1
    if sum(out.get(t, 0) for t in ("elder_witch", "junior_witch")) == 0:
        out["elder_witch"] = 1
    if "holy_villager" in out:
        holy = len([c for c in deal.get("characters", []) if c in HOLY])
        out["holy_villager"] = min(out["holy_villager"], holy)
    if types.get("village_lover"):
        out["village_lover"] = min(4, 2 * round(types["village_lover"] * n / old / 2))
    out = {t: c for t, c in out.items() if c}
    out["basic_villager"] = n - sum(out.values())
    if out["basic_villager"] < 0:
        raise ValueError(f"the setup cannot be scaled to {n} seats")
    return {**deal, "types": out}


def _werewolf_pool(deal, old, n):
    wolves = max(1, round(int(deal.get("werewolves", 0)) * n / old))
    pool = [r for r in deal.get("roles", []) if r not in ("villager", "werewolf")]
    specials = min(int(deal.get("specials", len(pool))), max(0, n - 2 * wolves))
    return {**deal, "werewolves": wolves, "specials": specials}


def _explicit(ruleset, deal, n):
    cards = [dict(c) for c in deal.get("cards", [])]
    if ruleset == "werewolf":
        plain = [c for c in cards if c.get("role") == "villager"]
        others = [c for c in cards if c.get("role") != "villager"]
        extra = [{"role": "villager"} for _ in range(max(0, n - len(cards)))]
    else:
        plain = [c for c in cards if c.get("type") == "basic_villager"]
        others = [c for c in cards if c.get("type") != "basic_villager"]
        used = {c.get("character") for c in cards}
        free = [c for c in CHARACTERS if c not in used and c not in HOLY]
        need = max(0, n - len(cards))
        if need > len(free):
            raise ValueError(f"the setup cannot be scaled to {n} seats")
        extra = [{"character": c, "type": "basic_villager"} for c in free[:need]]
    keep = n - len(others)
    if keep < 0:
        raise ValueError(f"the setup cannot be scaled to {n} seats")
    return {**deal, "cards": others + (plain + extra)[:keep]}


def scaled(setup: Setup, n: int) -> Setup:
    """`setup` at `n` seats (the same setup at its own size); ValueError if impossible."""
    if n == setup.seats:
        return setup
    deal = setup.deal
    if deal.get("mode") == "explicit":
        deal = _explicit(setup.ruleset, deal, n)
    elif setup.ruleset == "werewolf":
        deal = _werewolf_pool(deal, setup.seats, n)
    else:
        deal = _witchhunt_pool(deal, setup.seats, n)
    name = f"{setup.label()} at {n}" if setup.name else ""
    return replace(setup, seats=n, deal=deal, name=name)
