"""Dealing the cards: an explicit list, or cards drawn from a pool with the game's seed.

`deal_problems` lists every problem with a deal at once (the engine's `setup_problems`
decides what a legal setup is), in the reader's language; `deal_cards` turns the deal into
the engine's setup. A deal that cannot be dealt raises ValueError in the reader's words.
"""

import random

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.engine import CHARACTERS, HOLY, ROLES, TYPES, setup_problems
from games.narration.refusals import refusal_words

MODES = ("explicit", "pool")
# A card the ruleset does not know, one whole sentence per ruleset (its name stays a name).
_NOT_A_CARD_NUMBERED = {
    "witchhunt": gettext_lazy("Card %(number)s: %(card)s is not a witchhunt card."),
    "werewolf": gettext_lazy("Card %(number)s: %(card)s is not a werewolf card."),
}
_NOT_A_CARD = {
    "witchhunt": gettext_lazy("%(card)s is not a witchhunt card."),
    "werewolf": gettext_lazy("%(card)s is not a werewolf card."),
}


def _rng(seed):
    return random.Random(f"{seed}:deal")


def _cards_from_pool(ruleset, deal, n, rng):
    """The cards a pool deal gives n seats (a list of card dicts), or raise ValueError."""
    if ruleset == "werewolf":
        wolves = int(deal.get("werewolves", 0))
        pool = [r for r in deal.get("roles", []) if r not in ("villager", "werewolf")]
        specials = int(deal.get("specials", len(pool)))
        if specials > len(pool) or wolves + specials > n:
            raise ValueError(gettext("the pool has too few cards for these seats"))
        roles = ["werewolf"] * wolves + rng.sample(pool, specials)
        roles += ["villager"] * (n - len(roles))
        return [{"role": r} for r in roles]
    types = {t: int(c) for t, c in deal.get("types", {}).items()}
    if sum(types.values()) != n:
        raise ValueError(
            ngettext(
                "the type counts add up to %(total)s, not %(count)s seat",
                "the type counts add up to %(total)s, not %(count)s seats",
                n,
            )
            % {"total": sum(types.values()), "count": n}
        )
    pool = list(dict.fromkeys(deal.get("characters", [])))
    holy = [c for c in pool if c in HOLY]
    plain = [c for c in pool if c not in HOLY]
    n_holy = types.get("holy_villager", 0)
    if len(holy) < n_holy:
        raise ValueError(
            ngettext(
                "%(count)s Holy Villager needs %(count)s Holy character in the pool",
                "%(count)s Holy Villagers need %(count)s Holy characters in the pool",
                n_holy,
            )
            % {"count": n_holy}
        )
    if len(plain) < n - n_holy:
        raise ValueError(
            ngettext(
                "%(count)s other seat needs a non-Holy character",
                "%(count)s other seats need as many non-Holy characters",
                n - n_holy,
            )
            % {"count": n - n_holy}
        )
    chars = rng.sample(holy, n_holy) + rng.sample(plain, n - n_holy)
    kinds = ["holy_villager"] * n_holy + [
        t for t, c in types.items() if t != "holy_villager" for _ in range(c)
    ]
    return [{"character": c, "type": t} for c, t in zip(chars, kinds, strict=True)]


def _cards(ruleset, deal, n, seed):
    mode = deal.get("mode")
    if mode == "explicit":
        cards = list(deal.get("cards", []))
        if len(cards) != n:
            raise ValueError(
                ngettext(
                    "the deal lists %(count)s card for %(seats)s seats",
                    "the deal lists %(count)s cards for %(seats)s seats",
                    len(cards),
                )
                % {"count": len(cards), "seats": n}
            )
        return cards
    if mode == "pool":
        return _cards_from_pool(ruleset, deal, n, _rng(seed))
    raise ValueError(gettext("choose an explicit list of cards or a pool"))


def deal_cards(ruleset, deal, names, seed):
    """The engine setup for seats `names` (in seat order): players and Lover pairs.

    Cards are shuffled with the game's seed, so the deal replays (an explicit deal with
    "shuffle": false gives them in seat order). Village Lovers are paired
    in seat order (W-23: every Village Lover in exactly one pair)."""
    cards = _cards(ruleset, deal, len(names), seed)
    cards = [dict(c) for c in cards]
    if deal.get("shuffle", True):  # an explicit deal may give the cards in seat order
        _rng(seed).shuffle(cards)
    players = [{"name": name, **card} for name, card in zip(names, cards, strict=True)]
    lovers = []
    if ruleset == "witchhunt":
        in_love = [p["name"] for p in players if p.get("type") == "village_lover"]
        lovers = [in_love[i : i + 2] for i in range(0, len(in_love) - 1, 2)]
    return {"players": players, "lovers": lovers}


class DealProblem(str):
    """A problem's sentence that knows whether it is a warning (a deal with warnings alone
    is created on a second, deliberate submit, W-23) or an error: callers tell them apart
    by `warning`, never by the words, which are the reader's language."""

    warning = False

    @classmethod
    def of(cls, text: str, *, warning: bool = False) -> "DealProblem":
        problem = cls(text)
        problem.warning = warning
        return problem


def errors_only(problems) -> list:
    """The problems that bar a deal (its warnings do not)."""
    return [p for p in problems if not getattr(p, "warning", False)]


def deal_problems(ruleset, deal, n, seed=0, *, seat_words=None) -> list[DealProblem]:
    """Every problem with a deal, as sentences: errors first, then the warnings ("Warning:
    …", each a DealProblem whose `warning` is true).

    The deal is checked on placeholder seats; a problem naming one says "seat2", or
    `seat_words(2)` when given (the new-game form: the host's own line, "card 3")."""
    problems = _problems(ruleset, deal, n, seed, seat_words)
    return [p if isinstance(p, DealProblem) else DealProblem.of(p) for p in problems]


def _problems(ruleset, deal, n, seed, seat_words):
    if not isinstance(deal, dict) or deal.get("mode") not in MODES:
        return [gettext("Choose an explicit list of cards or a pool.")]
    known = ROLES if ruleset == "werewolf" else CHARACTERS
    kind = "werewolf" if ruleset == "werewolf" else "witchhunt"
    problems = []
    if deal["mode"] == "explicit":
        for i, card in enumerate(deal.get("cards", []), 1):
            key = card.get("role") if ruleset == "werewolf" else card.get("character")
            if key not in known:
                problems.append(_NOT_A_CARD_NUMBERED[kind] % {"number": i, "card": repr(key)})
            if ruleset == "witchhunt" and card.get("type") not in TYPES:
                problems.append(
                    gettext("Card %(number)s: %(type)s is not a player type.")
                    % {"number": i, "type": repr(card.get("type"))}
                )
        if problems:
            return problems
    else:
        unknown = [
            c
            for c in deal.get("characters" if ruleset == "witchhunt" else "roles", [])
            if c not in known
        ]
        if unknown:
            return [_NOT_A_CARD[kind] % {"card": repr(c)} for c in unknown]
    seats = [f"seat{i}" for i in range(n)]
    try:
        setup = deal_cards(ruleset, deal, seats, seed)
    except (ValueError, TypeError) as e:
        return [_sentence(str(e)) + "."]
    # The engine's problems are refusals: worded here, in the reader's language, with the
    # placeholder seats they name told as the caller asks (from the arguments, not the words).
    renamed = {name: seat_words(i) for i, name in enumerate(seats)} if seat_words else None
    found = [
        (level, refusal_words(m, renamed=renamed)) for level, m in setup_problems(ruleset, setup)
    ]
    errors = [_sentence(m) for level, m in found if level == "error"]
    warnings = [
        DealProblem.of(gettext("Warning: %(problem)s") % {"problem": m}, warning=True)
        for level, m in found
        if level == "warning"
    ]
    return errors + warnings


def _sentence(words: str) -> str:
    """Words as a sentence shown alone: its first letter a capital."""
    return words[:1].upper() + words[1:]
