"""The Werewolves of the Dark Arts cards used by the Werewolf ruleset (WW rulings)."""

GOOD, EVIL, WILD = "good", "evil", "wildcard"

ROLES = {
    # role: (alignment, name, what it does)
    "villager": (GOOD, "Villager", "No power."),
    "werewolf": (EVIL, "Werewolf", "Each night, votes with the pack to kill (WW-4)."),
    "seer": (GOOD, "Seer", "Each night, learns whether a player is a Werewolf."),
    "witch": (GOOD, "Witch", "One heal and one poison for the game, after midnight (WW-7)."),
    "thief": (GOOD, "Thief", "No power; wins with the good only while alive (WW-12)."),
    "matchmaker": (GOOD, "Matchmaker", "On Day 1, names two Lovers, self allowed (WW-9)."),
    "warlock": (EVIL, "Warlock", "Each night, hexes one player (WW-6)."),
    "crone": (EVIL, "Crone", "No power."),
    "fool": (WILD, "Fool", "Wins alone if lynched (WW-11)."),
    "were_hamster": (
        WILD,
        "Were-Hamster",
        "Survives the pack's attack; usurps the win if alive (WW-10, WW-13).",
    ),
    "were_gerbil": (WILD, "Were-Gerbil", "Each night, searches for the Were-Hamster (WW-14)."),
    "devil": (
        WILD,
        "Devil",
        "Each night, may kill one player; wins only as a living Lover (WW-15).",
    ),
}
REPEATABLE = ("villager", "werewolf")
