"""Why each resolution came out as it did, and the house ruling that decided it (issue 17).

One table: a reason code (`why.py` finds it from the events) -> (ruling, sentence). The
rulings are the published numbers (`games/rules_text/*-rulings.md`, current text); a test
checks that every one cited exists there. These words are for the moderator and the final
reveal only: they name causes and protections that the living are never told (W-9).
"""

from typing import NamedTuple

from django.utils.translation import gettext_lazy

from .labels import Names, display_name, name_list, phase_label


class Why(NamedTuple):
    ruling: str | None  # "W-10"; None where a card's own text decides (the Werewolf Seer)
    text: str  # a whole sentence, names already in it
    url: str = ""  # the ruling on the rules page; the selector fills it in


_ = gettext_lazy

REASONS = {
    # --- the day's vote (W-4, W-4a, W-30, W-38; WW-2) ---------------------------------------
    "majority": ("W-4", _("%(player)s is lynched: %(votes)s of %(living)s votes is a majority.")),
    "majority_recount": (
        "W-4a",
        _(
            "%(player)s is lynched: once a death changed the count, %(votes)s of %(living)s votes "
            "was a majority."
        ),
    ),
    "judge": (
        "W-30",
        _("%(player)s is lynched at the deadline: the Judge named them and no majority formed."),
    ),
    "cannon": ("W-38", _("%(player)s is lynched: the Loose Cannon named them.")),
    "no_lynch": (
        "W-4",
        _(
            "No lynch on %(day)s: the most votes anyone held, %(votes)s of %(living)s, is not a "
            "majority (a lynch needs %(need)s)."
        ),
    ),
    "no_votes": (
        "W-4",
        _(
            "No lynch on %(day)s: no vote stood at the deadline (a lynch needs %(need)s of "
            "%(living)s)."
        ),
    ),
    "ww_no_votes": (
        "WW-2",
        _(
            "No lynch on %(day)s: no vote stood at the deadline (a lynch needs %(need)s of "
            "%(living)s)."
        ),
    ),
    "ww_majority": (
        "WW-2",
        _("%(player)s is lynched: %(votes)s of %(living)s votes is a majority."),
    ),
    "ww_majority_recount": (
        "WW-2",
        _(
            "%(player)s is lynched: once a death changed the count, %(votes)s of %(living)s votes "
            "was a majority."
        ),
    ),
    "ww_no_lynch": (
        "WW-2",
        _(
            "No lynch on %(day)s: the most votes anyone held, %(votes)s of %(living)s, is not a "
            "majority (a lynch needs %(need)s)."
        ),
    ),
    # --- kill attempts that kill (W-9 g, by cause) ---------------------------------------
    "died_coven": ("W-9", _("%(player)s died to the Coven's kill: nothing saved them.")),
    "died_court": ("W-49", _("%(player)s died to the King's Court's kill.")),
    "died_hunter": ("W-40", _("%(player)s died to the Hunter's kill on the Halftime night.")),
    "died_entertainer": ("W-44", _("%(player)s died to the Entertainer's attempt.")),
    "died_summoner": (
        "W-46",
        _("%(player)s died: the Summoner named them and neither side saved them."),
    ),
    "died_assassin": (
        "W-47",
        _("%(player)s died: the Assassin named them and the Spies did not save them."),
    ),
    "died_vigilante": ("W-52", _("%(player)s died to the Vigilante's kill.")),
    "died_anarchist": ("W-56", _("%(player)s died to the Anarchist's kill.")),
    "died_mercenary": ("W-57", _("%(player)s died to the Traveling Mercenary's attempt.")),
    "died_weapon": ("W-63", _("%(player)s died to a weapon.")),
    "died_last_act": ("W-31", _("%(player)s died to the Dirty Old Bastard's last act.")),
    "died_lynch": ("W-12", _("%(player)s died at the lynch: no extra life saved them.")),
    "died_loose_cannon": ("W-38", _("%(player)s died to the Loose Cannon's attempt on himself.")),
    "died_wizard": ("W-48", _("%(player)s died to the Wizard's attempt.")),
    "died_musketeer": ("W-64", _("%(player)s died to the Musketeer's attempt.")),
    "died_twilight": (
        "W-66",
        _("%(player)s died to the Twilight Pagan's kill, which no extra life stops."),
    ),
    "died_templar": ("W-68", _("%(player)s died to the Templar's attack.")),
    "died_lover": ("W-58", _("%(player)s died of grief: their Lover's death was announced.")),
    "died": ("W-9", _("%(player)s died: nothing saved them.")),
    "fake": (
        "W-41",
        _("%(player)s's death is a fake one: the Magician, before Halftime, goes offstage."),
    ),
    # --- kill attempts that fail (W-9 b-f) -----------------------------------------------
    "deacon": (
        "W-55",
        _("%(player)s survived the lynch: no Holy Villager is lynched while the Deacon lives."),
    ),
    "mercenary_type": (
        "W-57",
        _("%(player)s survived: the Mercenary's attempt fails on the Mercenary's own player type."),
    ),
    "protected_angels": ("W-10", _("%(player)s survived: protected by the Angels.")),
    "protected_gambler": (
        "W-35",
        _("%(player)s survived: the Gambler is protected on even nights."),
    ),
    "protected_recluse": (
        "W-35",
        _("%(player)s survived: the Recluse is protected on odd nights."),
    ),
    "protected_hunter": (
        "W-40",
        _("%(player)s survived: the Hunter is protected on the Halftime night."),
    ),
    "protected_cupid": ("W-59", _("%(player)s survived: Cupid is protected on Night 1.")),
    "protected_moonlight": (
        "W-65",
        _("%(player)s survived: vetoed on the Moonlight Pagan's night, and so protected."),
    ),
    "protected_lover": ("W-58", _("%(player)s survived: Lovers share their protection.")),
    "protected_harlot": (
        "W-60",
        _("%(player)s survived: the Harlot shares a protected Lover's protection."),
    ),
    "protected_harlot_partner": (
        "W-10",
        _("%(player)s survived: protected as the Harlot's own Lover."),
    ),
    "protected": ("W-10", _("%(player)s survived: protected tonight.")),
    "pauper": ("W-54", _("%(player)s survived: the Pauper joins the King's Court instead.")),
    "extra_life": ("W-9", _("%(player)s survived: an extra life was spent.")),
    "extra_life_lynch": ("W-12", _("%(player)s survived the lynch: an extra life was spent.")),
    # --- Werewolf's night (WW-4..WW-10) ----------------------------------------------------
    "ww_pack": ("WW-7", _("%(player)s died to the pack's attack: the Witch did not heal it.")),
    "ww_poison": ("WW-7", _("%(player)s died to the Witch's poison.")),
    "ww_devil": ("WW-8", _("%(player)s died to the Devil's kill.")),
    "ww_lover": ("WW-9", _("%(player)s died with their Lover.")),
    "ww_lynch": ("WW-2", _("%(player)s died at the lynch.")),
    "ww_healed": ("WW-7", _("%(player)s survived the pack's attack: the Witch healed it.")),
    "ww_hamster": (
        "WW-10",
        _("%(player)s survived the pack's attack: the Were-Hamster does not die to the pack."),
    ),
    "ww_victim_gone": (
        "W-8a",
        _("The pack's attack on %(player)s lapsed: they were no longer living."),
    ),
    "ww_hexed": ("WW-6", _("%(player)s is hexed: their submissions tonight are void.")),
    "ww_locks": ("WW-5", _("At midnight the pack's victim and the Warlock's hex lock.")),
    "ww_card": ("WW-3", _("This game shows a card when its player dies.")),
    "ww_seer": (None, _("The Seer learns whether the target is a Werewolf (the Seer's card).")),
    "ww_gerbil": ("WW-14", _("The Were-Gerbil learns whether the target is the Were-Hamster.")),
    "ww_hexed_told": ("WW-5", _("The hexed player is told at midnight.")),
    "ww_witch_told": ("WW-5", _("The Witch is shown the pack's victim at midnight.")),
    "ww_lovers_told": ("WW-9", _("Each Lover learns the partner as Night 1 begins.")),
    # --- the night's steps (W-3, W-10, W-18, W-20) -----------------------------------------
    "locks": ("W-3", _("At midnight the Coven's and the Court's targets and the vetoes lock.")),
    "vetoed": ("W-18", _("Vetoed: %(players)s. Angel votes for them are void tonight.")),
    "protection": (
        "W-10",
        _("Protection is computed once tonight, after the vetoes: %(players)s."),
    ),
    "archangel": (
        "W-20",
        _("An Archangel card was spent: the Angels' protection ignores every veto tonight."),
    ),
    "moonlight": (
        "W-65",
        _(
            "The Moonlight Pagan's night: the vetoed are protected and every "
            "other direct source is cancelled."
        ),
    ),
    # --- lapses (W-8a) ----------------------------------------------------------------------
    "lapsed": (
        "W-8a",
        _("%(actor)s's ability lapsed, nothing spent: %(player)s was no longer living."),
    ),
    "lapsed_name": (
        "W-8a",
        _("%(actor)s's ability lapsed for %(player)s, no longer living; its other names went on."),
    ),
    "lapsed_weapon": (
        "W-8a",
        _("%(actor)s's weapon lapsed, nothing spent: %(player)s was no longer living."),
    ),
    "lapsed_coven": ("W-8a", _("The Coven's kill lapsed: %(player)s was no longer living.")),
    "lapsed_court": ("W-8a", _("The King's Court's kill lapsed: %(player)s was no longer living.")),
    # --- the Court (W-49) and removals (W-72) -------------------------------------------
    "court_forms": ("W-49", _("The Court forms as Night 1 resolves: %(players)s.")),
    "court_disbanded": ("W-49", _("The Court disbands: fewer than three of its members live.")),
    "removed": ("W-72", _("%(player)s is removed by the moderator and counts as dead.")),
    "removed_dead": ("W-72a", _("%(player)s, not living, is removed: no new death.")),
    "removal_death": ("W-72", _("%(player)s's removal counts as a death.")),
    "moderator_stalemate": (
        "W-72b",
        _("The moderator's stalemate ends the game: the Witches win."),
    ),
    # --- announcements -----------------------------------------------------------------
    "spies_dead": ("W-26", _("No Village Spy is living as the night begins.")),
    "halftime": ("W-27", _("At least half of the seats are dead as this night begins.")),
    "alarm": ("W-61", _("Half or more of the Lookout's player type are dead this morning.")),
    "returned": ("W-41", _("%(player)s returns the morning after the Halftime night.")),
    "gift": ("W-32", _("The Benevolent Old Dame's last act gives %(player)s an extra life.")),
    "captain": (
        "W-62",
        _("The Captain, not lynched and living at the day's end, gains two extra lives."),
    ),
    "wizard": ("W-48", _("The Wizard's guess decides who faces the attempt.")),
    "stalemate_cycles": ("W-69a", _("Nobody died for too many cycles in a row: the Witches win.")),
    # --- the end (W-69, W-70; WW-11..WW-15) ---------------------------------------------
    "win_witches": ("W-69", _("The living Witches are at least as many as the living Villagers.")),
    "win_village": ("W-69", _("No Witch is living.")),
    "winners": ("W-70", _("Every player of the winning team wins, dead or alive.")),
    "ww_win_village": ("WW-12", _("No Werewolf is living: every good card wins but a dead Thief.")),
    "ww_win_werewolves": (
        "WW-12",
        _("The living Werewolves are at least as many as every other living card."),
    ),
    "ww_win_nobody": ("WW-12", _("Nobody is living: nobody wins.")),
    "ww_win_fool": ("WW-11", _("The Fool was lynched and wins alone.")),
    "ww_win_hamster_fool": (
        "WW-11",
        _("The Fool was lynched while the Were-Hamster lives: the Hamster wins instead."),
    ),
    "ww_win_hamster": ("WW-13", _("The Were-Hamster is alive and usurps the victory.")),
    "ww_win_gerbil": ("WW-14", _("The Were-Gerbil found the Were-Hamster and both live.")),
    "ww_lovers_win": ("WW-15", _("Each Lover alive at the end wins too.")),
}

# Reveals: the character that reveals -> its ruling (W-38, W-48, W-62, W-64..W-68).
REVEALS = {
    "loose_cannon": "W-38",
    "wizard": "W-48",
    "captain": "W-62",
    "pious_musketeer": "W-64",
    "sneaky_musketeer": "W-64",
    "reckless_musketeer": "W-64",
    "moonlight_pagan": "W-65",
    "twilight_pagan": "W-66",
    "sunlight_pagan": "W-67",
    "templar": "W-68",
}
REVEAL_TEXT = _("%(player)s reveals their card by its ability.")

# Private results: `what` -> the ruling that makes it (FORMAT.md's info table).
RESULTS = {
    "allies": "W-24",
    "priest": "W-28",
    "inquisitor": "W-33",
    "investigator": "W-42",
    "fanatic": "W-37",
    "investigator_life": "W-42",
    "archangel_card": "W-19",
    "gravedigger": "W-36",
    "templar": "W-68",
    "undertaker": "W-53",
    "sunlight": "W-67",
    "acolyte": "W-34",
    "nun": "W-45",
    "oracle": "W-45",
    "bishop": "W-39",
    "zealot": "W-45",
    "cupid": "W-59",
    "queen": "W-50",
    "court": "W-49",
    "court_disbanded": "W-49",
    "coven": "W-26",
    "vigilante": "W-52",
    "armed": "W-63",
    "harlot": "W-60",
    "traveling_medic": "W-57",
    "veto": "W-74",
    "summoner": "W-46",
    "assassin": "W-47",
}
WEREWOLF_RESULTS = {
    "allies": "ww_allies",
    "seer": "ww_seer",
    "gerbil": "ww_gerbil",
    "hexed": "ww_hexed_told",
    "witch": "ww_witch_told",
    "lovers": "ww_lovers_told",
}
REASONS["ww_allies"] = ("WW-1", _("At Day 1 the Werewolves learn each other."))


def why(reason: str, names: Names, *, player=None, players=(), actor=None, **numbers) -> Why:
    """The Why of `reason`, its sentence filled in (players by their player names)."""
    ruling, sentence = REASONS[reason]
    text = str(sentence) % {
        "player": display_name(player, names),
        "actor": display_name(actor, names),
        "players": name_list(names, players),
        **{k: phase_label(v) if k == "day" else v for k, v in numbers.items()},
    }
    return Why(ruling, text)


def reveal_why(character: str, player: str, names: Names) -> Why:
    return Why(REVEALS.get(character), str(REVEAL_TEXT) % {"player": display_name(player, names)})


def result_why(what: str, ruleset: str, names: Names) -> Why | None:
    """A private result's ruling, or None for a `what` this table does not know."""
    if ruleset == "werewolf" and what in WEREWOLF_RESULTS:
        return why(WEREWOLF_RESULTS[what], names)
    if what in RESULTS:
        return Why(RESULTS[what], "")  # the result's own line says what it is
    return None


def cited() -> set[str]:
    """Every ruling this table can cite (a test finds each on the rules pages)."""
    return {r for r, _s in REASONS.values() if r} | set(REVEALS.values()) | set(RESULTS.values())
