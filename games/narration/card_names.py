"""The cards' names on the pages, in the reader's language (the glossary in
docs/translation.md). The engine's tables and the record keep the English keys and names;
each name is a literal here so that the catalog finds it. Tests check that every card of
the tables has its entry and that the English reads as the table prints it."""

from django.utils.translation import pgettext_lazy

# Witchhunt characters.
CHARACTER_NAMES = {
    "priest": pgettext_lazy("card", "Priest"),
    "survivalist": pgettext_lazy("card", "Survivalist"),
    "judge": pgettext_lazy("card", "Judge"),
    "dirty_old_bastard": pgettext_lazy("card", "Dirty Old Bastard"),
    "benevolent_old_dame": pgettext_lazy("card", "Benevolent Old Dame"),
    "inquisitor": pgettext_lazy("card", "Inquisitor"),
    "acolyte": pgettext_lazy("card", "Acolyte"),
    "gambler": pgettext_lazy("card", "Gambler"),
    "recluse": pgettext_lazy("card", "Recluse"),
    "gravedigger": pgettext_lazy("card", "Gravedigger"),
    "fanatic": pgettext_lazy("card", "Fanatic"),
    "loose_cannon": pgettext_lazy("card", "Loose Cannon"),
    "bishop": pgettext_lazy("card", "Bishop"),
    "hunter": pgettext_lazy("card", "Hunter"),
    "magician": pgettext_lazy("card", "Magician"),
    "investigator": pgettext_lazy("card", "Investigator"),
    "innkeeper": pgettext_lazy("card", "Innkeeper"),
    "entertainer": pgettext_lazy("card", "Entertainer"),
    "nun": pgettext_lazy("card", "Nun"),
    "zealot": pgettext_lazy("card", "Zealot"),
    "summoner": pgettext_lazy("card", "Summoner"),
    "assassin": pgettext_lazy("card", "Assassin"),
    "oracle": pgettext_lazy("card", "Oracle"),
    "wizard": pgettext_lazy("card", "Wizard"),
    "king": pgettext_lazy("card", "King"),
    "queen": pgettext_lazy("card", "Queen"),
    "paladin": pgettext_lazy("card", "Paladin"),
    "vigilante": pgettext_lazy("card", "Vigilante"),
    "undertaker": pgettext_lazy("card", "Undertaker"),
    "pauper": pgettext_lazy("card", "Pauper"),
    "deacon": pgettext_lazy("card", "Deacon"),
    "anarchist": pgettext_lazy("card", "Anarchist"),
    "traveling_medic": pgettext_lazy("card", "Traveling Medic"),
    "traveling_mercenary": pgettext_lazy("card", "Traveling Mercenary"),
    "traveling_mystic": pgettext_lazy("card", "Traveling Mystic"),
    "traveling_minstrel": pgettext_lazy("card", "Traveling Minstrel"),
    "cupid": pgettext_lazy("card", "Cupid"),
    "moonlight_pagan": pgettext_lazy("card", "Moonlight Pagan"),
    "twilight_pagan": pgettext_lazy("card", "Twilight Pagan"),
    "sunlight_pagan": pgettext_lazy("card", "Sunlight Pagan"),
    "templar": pgettext_lazy("card", "Templar"),
    "lookout": pgettext_lazy("card", "Lookout"),
    "harlot": pgettext_lazy("card", "Harlot"),
    "captain": pgettext_lazy("card", "Captain"),
    "blacksmith": pgettext_lazy("card", "Blacksmith"),
    "pious_musketeer": pgettext_lazy("card", "Pious Musketeer"),
    "sneaky_musketeer": pgettext_lazy("card", "Sneaky Musketeer"),
    "reckless_musketeer": pgettext_lazy("card", "Reckless Musketeer"),
}

# Witchhunt player types.
TYPE_NAMES = {
    "basic_villager": pgettext_lazy("card", "Basic Villager"),
    "holy_villager": pgettext_lazy("card", "Holy Villager"),
    "village_spy": pgettext_lazy("card", "Village Spy"),
    "village_lover": pgettext_lazy("card", "Village Lover"),
    "elder_witch": pgettext_lazy("card", "Elder Witch"),
    "junior_witch": pgettext_lazy("card", "Junior Witch"),
}

# Werewolf roles ("Witch" is a Werewolf role as well as a team's word).
ROLE_NAMES = {
    "villager": pgettext_lazy("werewolf role", "Villager"),
    "werewolf": pgettext_lazy("werewolf role", "Werewolf"),
    "seer": pgettext_lazy("werewolf role", "Seer"),
    "witch": pgettext_lazy("werewolf role", "Witch"),
    "thief": pgettext_lazy("werewolf role", "Thief"),
    "matchmaker": pgettext_lazy("werewolf role", "Matchmaker"),
    "warlock": pgettext_lazy("werewolf role", "Warlock"),
    "crone": pgettext_lazy("werewolf role", "Crone"),
    "fool": pgettext_lazy("werewolf role", "Fool"),
    "were_hamster": pgettext_lazy("werewolf role", "Were-Hamster"),
    "were_gerbil": pgettext_lazy("werewolf role", "Were-Gerbil"),
    "devil": pgettext_lazy("werewolf role", "Devil"),
}
