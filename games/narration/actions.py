"""What a seat may do, in words: the labels of actions, of each card's ability form, of
choices and of what a seat may withdraw."""

from django.utils.translation import gettext_lazy, pgettext_lazy

from .labels import card_label

ACTIONS = {
    "vote": gettext_lazy("Vote to lynch"),
    "unvote": gettext_lazy("Withdraw your vote"),
    "coven": gettext_lazy("The Coven's kill vote"),
    "court": gettext_lazy("The King's Court's kill vote"),
    "protect": gettext_lazy("Protect (the Angels' vote)"),
    "veto": gettext_lazy("Veto (the Demons' vote)"),
    "archangel": gettext_lazy("Spend an Archangel card: tonight the Angels ignore every veto"),
    "archdemon": gettext_lazy("Spend an Archangel card on an Archdemon veto"),
    "give_card": gettext_lazy("Give an Archangel card to another player in the afterlife"),
    "save": gettext_lazy("Save vote"),
    "weapon": gettext_lazy("Use your weapon"),
    "pack": gettext_lazy("The pack's kill vote"),
    "ability": gettext_lazy("Use your ability"),
    "withdraw": gettext_lazy("Withdraw"),
}
ABILITIES = {
    # card: what its ability form does, in the player's words
    "priest": gettext_lazy("Check whether a player is in the Coven"),
    "inquisitor": gettext_lazy("Check whether a player is a Holy Villager"),
    "investigator": gettext_lazy("Check whether a player is a Village Spy"),
    "king": gettext_lazy("Choose up to four players to join your Court"),
    "paladin": gettext_lazy("Give a Court member an extra life"),
    "vigilante": gettext_lazy("Kill a player"),
    "anarchist": gettext_lazy("Kill a player (a second one if the first was on the Court)"),
    "hunter": gettext_lazy("Kill a player"),
    "entertainer": gettext_lazy("Name three other players"),
    "summoner": gettext_lazy("Name exactly three players to kill"),
    "assassin": gettext_lazy("Name exactly two players to kill"),
    "blacksmith": gettext_lazy("Arm one or two other players"),
    "traveling_medic": gettext_lazy("Give a player of your type an extra life"),
    "traveling_mercenary": gettext_lazy("Kill a player"),
    "traveling_mystic": gettext_lazy("Mark a player for an Archangel card"),
    "traveling_minstrel": gettext_lazy("Choose a fellow Traveler to act twice"),
    "moonlight_pagan": gettext_lazy("Reveal the Moonlight Pagan tonight"),
    "undertaker": gettext_lazy("Look at the cards of the night's dead"),
    "judge": gettext_lazy("Name the player to lynch if the town fails"),
    "lookout": gettext_lazy("Choose the Alarm's player type"),
    "loose_cannon": gettext_lazy("Reveal and decide the lynch"),
    "wizard": gettext_lazy("Reveal and guess a player's character"),
    "pious_musketeer": gettext_lazy("Reveal and name one or two players"),
    "sneaky_musketeer": gettext_lazy("Reveal and name one or two players"),
    "reckless_musketeer": gettext_lazy("Reveal and name one or two players"),
    "twilight_pagan": gettext_lazy("Reveal and kill a survivor"),
    "sunlight_pagan": gettext_lazy("Reveal and see the cards of today's dead"),
    "templar": gettext_lazy("Reveal, or attack a revealed Pagan"),
    "captain": gettext_lazy("Reveal the Captain"),
    "dirty_old_bastard": gettext_lazy("Last act: kill a player (or decline)"),
    "benevolent_old_dame": gettext_lazy("Last act: give a player an extra life (or decline)"),
    "seer": gettext_lazy("Check whether a player is a Werewolf"),
    "warlock": gettext_lazy("Hex a player"),
    "were_gerbil": gettext_lazy("Search for the Were-Hamster"),
    "devil": gettext_lazy("Kill a player"),
    "witch": gettext_lazy("Heal the pack's victim, or poison a player"),
    "matchmaker": gettext_lazy("Name the two Lovers"),
}
CHOICES = {
    "heal": gettext_lazy("Heal the pack's victim"),
    "poison": gettext_lazy("Poison a player"),
}
WITHDRAW_WHAT = {
    "coven": pgettext_lazy("withdrawn", "Coven vote"),
    "court": pgettext_lazy("withdrawn", "Court vote"),
    "protect": pgettext_lazy("withdrawn", "protect vote"),
    "veto": pgettext_lazy("withdrawn", "veto vote"),
    "save": pgettext_lazy("withdrawn", "save vote"),
    "ability": pgettext_lazy("withdrawn", "ability"),
    "weapon": pgettext_lazy("withdrawn", "weapon use"),
    "pack": pgettext_lazy("withdrawn", "pack vote"),
    "vote": pgettext_lazy("withdrawn", "vote"),
}


def action_label(action) -> str:
    return str(ACTIONS.get(action, action))


def ability_label(card) -> str:
    return str(ABILITIES.get(card, ACTIONS["ability"]))


def choice_label(key) -> str:
    return str(CHOICES[key]) if key in CHOICES else card_label(key)


def withdraw_label(what) -> str:
    return str(WITHDRAW_WHAT.get(what, what))
