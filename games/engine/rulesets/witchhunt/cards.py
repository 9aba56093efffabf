"""The 48 Witchhunt characters and six player types: the card table (rules 9.0).

Card text is the rules text, shown on the role page and the card pages.
"""

HOLY = frozenset({"priest", "acolyte", "bishop", "nun", "king", "deacon"})  # W-22

TYPES = {
    # type: (team, label)  W-21
    "basic_villager": ("village", "Basic Villager"),
    "holy_villager": ("village", "Holy Villager"),
    "village_spy": ("village", "Village Spy"),
    "village_lover": ("village", "Village Lover"),
    "elder_witch": ("witches", "Elder Witch"),
    "junior_witch": ("witches", "Junior Witch"),
}

CHARACTERS = {
    # key: (number, name, expansion, text)
    "priest": (
        1,
        "Priest",
        "Witchhunt Base Set",
        "Each night, you may check if a target is a Coven member.",
    ),
    "survivalist": (
        2,
        "Survivalist",
        "Witchhunt Base Set",
        "You start the game with an extra life.",
    ),
    "judge": (
        3,
        "Judge",
        "Witchhunt Base Set",
        "Whenever the town fails to select a lynch target, you may privately determine it yourself.",
    ),
    "dirty_old_bastard": (
        4,
        "Dirty Old Bastard",
        "Witchhunt Base Set",
        "When your death is announced, you may kill a target.",
    ),
    "benevolent_old_dame": (
        5,
        "Benevolent Old Dame",
        "Witchhunt Base Set",
        "When your death is announced, you may give an extra life to a target. (This is public.)",
    ),
    "inquisitor": (
        6,
        "Inquisitor",
        "Witchhunt Base Set",
        "Each night, you may check if a target is a Holy Villager.",
    ),
    "acolyte": (
        7,
        "Acolyte",
        "Witchhunt Base Set",
        "At the start of the game, you will be shown the Priest's identity.",
    ),
    "gambler": (
        8,
        "Gambler",
        "Witchhunt Base Set",
        "During even nights, you are protected.",
    ),
    "recluse": (
        9,
        "Recluse",
        "Witchhunt Base Set",
        "During odd nights, you are protected.",
    ),
    "gravedigger": (
        10,
        "Gravedigger",
        "Witchhunt Base Set",
        "When a lynched player dies, you will be shown all of their cards.",
    ),
    "fanatic": (
        11,
        "Fanatic",
        "Witchhunt Base Set",
        "When the Priest checks you, you are informed and gain an extra life.",
    ),
    "loose_cannon": (
        12,
        "Loose Cannon",
        "Witchhunt Base Set",
        "Before a lynch vote is decided, you may kill yourself to decide it. Do this dramatically.",
    ),
    "bishop": (
        13,
        "Bishop",
        "Showdown Expansion",
        "At Halftime, you will be shown all living Coven members.",
    ),
    "hunter": (
        14,
        "Hunter",
        "Showdown Expansion",
        "At Halftime, you are protected and may kill a target.",
    ),
    "magician": (
        15,
        "Magician",
        "Showdown Expansion",
        "If you die before Halftime, your death is fake. The morning after Halftime, reveal that you are alive.",
    ),
    "investigator": (
        16,
        "Investigator",
        "Showdown Expansion",
        "Each night, you may check if a target is a Village Spy. If you check them all, you gain an extra life.",
    ),
    "innkeeper": (
        17,
        "Innkeeper",
        "Showdown Expansion",
        "Each night, meet with the Inquisitor and Investigator.",
    ),
    "entertainer": (
        18,
        "Entertainer",
        "Showdown Expansion",
        "At Halftime, you may select three other targets. If they are on different sides, the odd-man-out is killed. If not, you are killed.",
    ),
    "nun": (
        19,
        "Nun",
        "Showdown Expansion",
        "At the start of the game, you will be shown the Bishop's identity.",
    ),
    "zealot": (
        20,
        "Zealot",
        "Showdown Expansion",
        "At Halftime, you will be shown all living Holy Villagers.",
    ),
    "summoner": (
        21,
        "Summoner",
        "Showdown Expansion",
        "At Halftime, you may kill exactly three targets. The Angels may save one. The Demons may save one.",
    ),
    "assassin": (
        22,
        "Assassin",
        "Showdown Expansion",
        "At Halftime, you may kill exactly two targets. The Village Spies meet and may vote to save one.",
    ),
    "oracle": (
        23,
        "Oracle",
        "Showdown Expansion",
        "At the start of the game, you will be shown the identity of all characters that kill at Halftime.",
    ),
    "wizard": (
        24,
        "Wizard",
        "Showdown Expansion",
        "During any day after Halftime, you may reveal this card and guess a target's character. If correct, they are killed. If incorrect, you are killed.",
    ),
    "king": (
        25,
        "King",
        "King's Court Expansion",
        "The first night, select up to four targets to join your Court. Every even night, the Court meets and votes to kill a target. (Disbands when two are left)",
    ),
    "queen": (
        26,
        "Queen",
        "King's Court Expansion",
        "You are automatically part of the King's Court. After the King selects his Court, you will be informed whether it has an odd or even number of Witches. (This counts both types of Witches.)",
    ),
    "paladin": (
        27,
        "Paladin",
        "King's Court Expansion",
        "You are automatically part of the King's Court. Whenever the Court meets with exactly three members, you may give one an extra life.",
    ),
    "vigilante": (
        28,
        "Vigilante",
        "King's Court Expansion",
        "When anyone on your side dies to the King's Court, you may kill a target the following night.",
    ),
    "undertaker": (
        29,
        "Undertaker",
        "King's Court Expansion",
        "Once per game at the start of a night of your choice, you will be shown all cards of all players who died during previous nights.",
    ),
    "pauper": (
        30,
        "Pauper",
        "King's Court Expansion",
        "You survive the first attempt to kill you and join the King's Court instead. (Only if the Court still exists and you are not a member)",
    ),
    "deacon": (
        31,
        "Deacon",
        "King's Court Expansion",
        "As long as you are alive, all Holy Villagers survive any attempt to lynch them.",
    ),
    "anarchist": (
        32,
        "Anarchist",
        "King's Court Expansion",
        "When the King's Court dissolves, you may kill a target. If the target was on the Court, you may kill a second target.",
    ),
    "traveling_medic": (
        33,
        "Traveling Medic",
        "King's Court Expansion",
        "The third night, you will meet with the other Travelers. You may select a target. If you share the same player type, the target gains an extra life.",
    ),
    "traveling_mercenary": (
        34,
        "Traveling Mercenary",
        "King's Court Expansion",
        "The third night, you will meet with the other Travelers. You may kill a target. If the target is the same player type as you, the target survives.",
    ),
    "traveling_mystic": (
        35,
        "Traveling Mystic",
        "King's Court Expansion",
        "The third night, you will meet with the other Travelers. You may select a target. When that player dies, they will receive an Archangel card.",
    ),
    "traveling_minstrel": (
        36,
        "Traveling Minstrel",
        "King's Court Expansion",
        "The third night, you will meet with the other Travelers. You may select a fellow Traveler. They may use their ability again on a second target.",
    ),
    "cupid": (
        37,
        "Cupid",
        "Love & War Expansion",
        "The first night, you are protected and will be shown all Village Lovers.",
    ),
    "moonlight_pagan": (
        38,
        "Moonlight Pagan",
        "Love & War Expansion",
        "Once per game at the end of any night, you may reveal this card. That night the Demons' veto target is protected, and all other protection sources are canceled.",
    ),
    "twilight_pagan": (
        39,
        "Twilight Pagan",
        "Love & War Expansion",
        "Once per game when a player survives a kill, you may reveal this card. Kill them again until they die.",
    ),
    "sunlight_pagan": (
        40,
        "Sunlight Pagan",
        "Love & War Expansion",
        "Once per game after any morning's death announcements, you may reveal this card. You will be privately shown the character and type of all those players.",
    ),
    "templar": (
        41,
        "Templar",
        "Love & War Expansion",
        "During any day, you may reveal this card. You may kill a revealed Pagan. If they die to this kill, you will be privately shown their cards.",
    ),
    "lookout": (
        42,
        "Lookout",
        "Love & War Expansion",
        "At the start of the game, you must select a player type for the Alarm. (This sounds the first morning half those players are dead.)",
    ),
    "harlot": (
        43,
        "Harlot",
        "Love & War Expansion",
        "Any night a Village Lover is protected, you are informed which Lover and share the protection.",
    ),
    "captain": (
        44,
        "Captain",
        "Love & War Expansion",
        "When the Alarm sounds, you may reveal this card. If you are not lynched, you gain two extra lives.",
    ),
    "blacksmith": (
        45,
        "Blacksmith",
        "Love & War Expansion",
        "The night after the Alarm sounds, you may give up to two other living players weapons. Players given weapons who are not Holy Villagers may kill a target.",
    ),
    "pious_musketeer": (
        46,
        "Pious Musketeer",
        "Love & War Expansion",
        "At the start of the game, you will meet with the other Musketeers. Once per game during day if you are the only Musketeer alive, you may reveal this card. Select up to two targets. Any who are not Holy Villagers are killed.",
    ),
    "sneaky_musketeer": (
        47,
        "Sneaky Musketeer",
        "Love & War Expansion",
        "At the start of the game, you will meet with the other Musketeers. Once per game during day if you are the only Musketeer alive, you may reveal this card. Select up to two targets. Any who are not Village Spies are killed.",
    ),
    "reckless_musketeer": (
        48,
        "Reckless Musketeer",
        "Love & War Expansion",
        "At the start of the game, you will meet with the other Musketeers. Once per game during day if you are the only Musketeer alive, you may reveal this card. Select up to two targets. Any who are not Witches (either type) are killed.",
    ),
}
