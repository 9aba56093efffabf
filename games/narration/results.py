"""Private results in words: the `info` events (FORMAT.md's info table), one small
function per kind of result, chosen from a table by its `what`."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .labels import Names, card_label, cards_text, display_name, name_list

ALLY_GROUPS = {
    # group: whose names the result holds, as a sentence
    "elder_witch": gettext_lazy("Your fellow Elder Witches: %(players)s."),
    "junior_witch": gettext_lazy("Your fellow Junior Witches: %(players)s."),
    "village_spy": gettext_lazy("Your fellow Village Spies: %(players)s."),
    "village_lover": gettext_lazy("Your Lover: %(players)s."),
    "musketeers": gettext_lazy("Your fellow Musketeers: %(players)s."),
    "werewolves": gettext_lazy("Your fellow Werewolves: %(players)s."),
}
MIXED_GROUPS = {
    # group: the mixed list a Witch is told (W-25, W-26), with and without names
    "elder_witch": (
        lambda n: ngettext(
            "The Junior Witches and Village Spies: %(players)s — %(n)s Witch among them.",
            "The Junior Witches and Village Spies: %(players)s — %(n)s Witches among them.",
            n,
        ),
        gettext_lazy("The Junior Witches and Village Spies: nobody."),
    ),
    "junior_witch": (
        lambda n: ngettext(
            "The Elder Witches and Village Spies: %(players)s — %(n)s Witch among them.",
            "The Elder Witches and Village Spies: %(players)s — %(n)s Witches among them.",
            n,
        ),
        gettext_lazy("The Elder Witches and Village Spies: nobody."),
    ),
}
CHECKS = {
    # what: (said when true, said when false)
    "priest": (
        gettext_lazy("Priest's check: %(player)s is in the Coven."),
        gettext_lazy("Priest's check: %(player)s is not in the Coven."),
    ),
    "inquisitor": (
        gettext_lazy("Inquisitor's check: %(player)s is a Holy Villager."),
        gettext_lazy("Inquisitor's check: %(player)s is not a Holy Villager."),
    ),
    "investigator": (
        gettext_lazy("Investigator's check: %(player)s is a Village Spy."),
        gettext_lazy("Investigator's check: %(player)s is not a Village Spy."),
    ),
    "seer": (
        gettext_lazy("Seer's check: %(player)s is a Werewolf."),
        gettext_lazy("Seer's check: %(player)s is not a Werewolf."),
    ),
    "gerbil": (
        gettext_lazy("Were-Gerbil's check: %(player)s is the Were-Hamster."),
        gettext_lazy("Were-Gerbil's check: %(player)s is not the Were-Hamster."),
    ),
}
HOLDERS = {
    # what: (said when the card is in play, said when it is not) (W-34, W-45)
    "acolyte": (
        gettext_lazy("The Priest is %(player)s."),
        gettext_lazy("There is no Priest in this game."),
    ),
    "nun": (
        gettext_lazy("The Bishop is %(player)s."),
        gettext_lazy("There is no Bishop in this game."),
    ),
}
LISTS = {
    # what: a sentence naming the players of the result
    "bishop": gettext_lazy("The living Coven members: %(players)s."),
    "zealot": gettext_lazy("The living Holy Villagers: %(players)s."),
    "cupid": gettext_lazy("The Village Lovers: %(players)s."),
    "court": gettext_lazy("The King's Court: %(players)s."),
    "coven": gettext_lazy("The Junior Witches have joined the Coven. The Coven: %(players)s."),
    "veto": gettext_lazy("The Demons vetoed: %(players)s."),
    "summoner": gettext_lazy("The Summoner named: %(players)s."),
    "assassin": gettext_lazy("The Assassin named: %(players)s."),
}
FIXED = {
    # what: a result that is the same sentence every time
    "fanatic": gettext_lazy("The Priest checked you: you gain an extra life."),
    "investigator_life": gettext_lazy(
        "You have checked every Village Spy: you gain an extra life."
    ),
    "court_disbanded": gettext_lazy("The King's Court has disbanded."),
    "vigilante": gettext_lazy(
        "Someone on your side died to the King's Court: you may kill tonight."
    ),
    "hexed": gettext_lazy("You were hexed tonight: your actions tonight do nothing."),
}
QUEEN = {
    "odd": gettext_lazy("The King's Court has an odd number of Witches."),
    "even": gettext_lazy("The King's Court has an even number of Witches."),
}


def _allies(result, about, names):
    group = result.get("group")
    own = ALLY_GROUPS.get(group, gettext_lazy("Your group: %(players)s."))
    text = own % {"players": name_list(names, result.get("known", []))}
    if group not in MIXED_GROUPS:
        return text
    named, nobody = MIXED_GROUPS[group]
    mixed = result.get("mixed", [])
    if not mixed:
        return f"{text} {nobody}"
    n = result.get("mixed_witches", 0)
    return f"{text} {named(n) % {'players': name_list(names, mixed), 'n': n}}"


def _oracle(result, about, names):
    if not result:
        return _("No character that kills at Halftime is in play.")
    parts = [
        _("%(card)s: %(player)s") % {"card": card_label(c), "player": display_name(n, names)}
        for c, n in sorted(result.items())
    ]
    return _("The characters that kill at Halftime: %(cards)s.") % {"cards": "; ".join(parts)}


def _archangel_card(result, about, names):
    return ngettext(
        "You now hold %(n)s Archangel card.", "You now hold %(n)s Archangel cards.", result
    ) % {"n": result}


def _cards_of_one(result, about, names):
    return _("%(player)s's cards: %(cards)s.") % {
        "player": display_name(about, names),
        "cards": cards_text(result),
    }


def _cards_of_dead(result, about, names):
    if not result:
        return _("Nobody's cards to see.")
    parts = [
        _("%(player)s: %(cards)s") % {"player": display_name(n, names), "cards": cards_text(c)}
        for n, c in sorted(result.items())
    ]
    return _("The cards of the dead: %(cards)s.") % {"cards": "; ".join(parts)}


def _queen(result, about, names):
    return str(QUEEN[result]) if result in QUEEN else _generic("queen", result, about, names)


def _armed(result, about, names):
    if result:
        return _("You were given a weapon: you may make one kill on a later night.")
    return _("You were given a weapon, but a Holy Villager cannot use it.")


def _harlot(result, about, names):
    return _("%(player)s, a Village Lover, was protected; you share the protection.") % {
        "player": display_name(about, names)
    }


def _traveling_medic(result, about, names):
    if result:
        return _("%(player)s gained an extra life from you.") % {
            "player": display_name(about, names)
        }
    return _("%(player)s did not gain an extra life from you.") % {
        "player": display_name(about, names)
    }


def _witch(result, about, names):
    return _("The pack's victim tonight: %(player)s.") % {"player": display_name(about, names)}


def _lovers(result, about, names):
    return _("Your Lover: %(player)s.") % {"player": display_name(result, names)}


def _generic(what, result, about, names):
    if about is None:
        return f"{what}: {result}"
    return f"{what}: {result} ({display_name(about, names)})"


RESULTS = {
    "allies": _allies,
    "oracle": _oracle,
    "archangel_card": _archangel_card,
    "gravedigger": _cards_of_one,
    "templar": _cards_of_one,
    "undertaker": _cards_of_dead,
    "sunlight": _cards_of_dead,
    "queen": _queen,
    "armed": _armed,
    "harlot": _harlot,
    "traveling_medic": _traveling_medic,
    "witch": _witch,
    "lovers": _lovers,
}

# Every `what` with a sentence of its own (any other falls back to "what: result").
RESULT_KINDS = frozenset().union(CHECKS, HOLDERS, LISTS, FIXED, RESULTS)


def describe_info(what, result, about, names: Names) -> str:
    """One private result in words (the `info` events of FORMAT.md)."""
    if what in CHECKS:
        yes, no = CHECKS[what]
        return (yes if result else no) % {"player": display_name(about, names)}
    if what in HOLDERS:
        named, absent = HOLDERS[what]
        return str(absent) if result is None else named % {"player": display_name(result, names)}
    if what in LISTS:
        return LISTS[what] % {"players": name_list(names, result)}
    if what in FIXED:
        return str(FIXED[what])
    if what in RESULTS:
        return RESULTS[what](result, about, names)
    return _generic(what, result, about, names)
