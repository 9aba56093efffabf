"""Events, private results and submissions in words, for the game pages.

Every text here is built from one event's own data (or the seat's own submission), so a
page shows exactly what its events say and nothing else: who may see an event is decided
before it reaches a template (selectors, views.visible_events). Names are seat names
turned into the occupant's player name with `names` (selectors.display_names).
"""

from django import template
from django.urls import reverse

from games.engine.rulesets.werewolf.roles import ROLES
from games.engine.rulesets.witchhunt.cards import CHARACTERS, TYPES
from games.selectors import POSTS_PER_PAGE

register = template.Library()

# --- cards --------------------------------------------------------------------------------
# What each player type means for its holder; the card table has no text for types.
TYPE_NOTES = {
    # The card's kind line already names the team ("Player type · the Village's team").
    "basic_villager": "No power of its own: you win with the Village.",
    "holy_villager": "You hold a Holy character (W-22).",
    "village_spy": "The Village Spies know each other (W-24).",
    "village_lover": (
        "You and your partner share protection; when one of you dies, the other makes a kill "
        "attempt on themselves (W-58)."
    ),
    "elder_witch": "You meet with the Coven every night and vote to kill (W-25).",
    "junior_witch": (
        "You join the Coven the night no Elder Witch or no Village Spy is alive (W-26)."
    ),
}
ALIGNMENTS = {"good": "Good", "evil": "Evil", "wildcard": "Wildcard"}
WINNERS = {
    "village": "the Village",
    "witches": "the Witches",
    "werewolves": "the Werewolves",
    "fool": "the Fool",
    "were_hamster": "the Were-Hamster",
    "hamster_and_gerbil": "the Were-Hamster and the Were-Gerbil",
    "nobody": "nobody",
}


@register.filter
def character_label(key):
    return CHARACTERS[key][1] if key in CHARACTERS else str(key)


@register.filter
def type_label(key):
    return TYPES[key][1] if key in TYPES else str(key)


@register.filter
def type_label_count(key, n):
    """ "Elder Witch" or "Elder Witches", for n of them."""
    label = type_label(key)
    if n == 1:
        return label
    if label.endswith("Witch"):
        return label + "es"
    return label[:-1] + "ies" if label.endswith("y") else label + "s"


@register.filter
def type_note(key):
    return TYPE_NOTES.get(key, "")


@register.filter
def role_label(key):
    return ROLES[key][1] if key in ROLES else str(key)


def card_label(key):
    """A character, a player type or a Werewolf role by its name on the card."""
    if key in CHARACTERS:
        return CHARACTERS[key][1]
    if key in TYPES:
        return TYPES[key][1]
    if key in ROLES:
        return ROLES[key][1]
    return str(key)


STATUSES = {
    "alive": "Alive",
    "dead": "Dead",
    "last_act": "Dead (offstage, last act unused)",
    "fake": "Dead (offstage: the Magician)",
    "removed": "Removed",
}


@register.filter
def status_label(status):
    return STATUSES.get(status, status)


@register.filter
def get_item(mapping, key):
    return mapping.get(key)


@register.filter
def phase_label(phase):
    """ "night 2" -> "Night 2"."""
    return str(phase)[:1].upper() + str(phase)[1:]


@register.filter
def winner_label(key):
    return WINNERS.get(key, key)


# --- names ---------------------------------------------------------------------------------
def _who(names, name):
    if name is None:
        return "nobody"
    return names.get(name, name)


def _list(names, seq):
    people = [_who(names, n) for n in seq]
    return ", ".join(people) if people else "nobody"


@register.filter
def display_name(name, names):
    return _who(names, name)


def _plural(n, word, plural=None):
    return f"{n} {word if n == 1 else plural or word + 's'}"


# --- private results (FORMAT.md's info table) ------------------------------------------------
ALLY_GROUPS = {
    # group: (label for the group's other members, label for the mixed list)
    "elder_witch": ("Your fellow Elder Witches", "The Junior Witches and Village Spies"),
    "junior_witch": ("Your fellow Junior Witches", "The Elder Witches and Village Spies"),
    "village_spy": ("Your fellow Village Spies", None),
    "village_lover": ("Your Lover", None),
    "musketeers": ("Your fellow Musketeers", None),
    "werewolves": ("Your fellow Werewolves", None),
}
CHECKS = {
    # what: (who checks, said when true, said when false)
    "priest": ("Priest", "is in the Coven", "is not in the Coven"),
    "inquisitor": ("Inquisitor", "is a Holy Villager", "is not a Holy Villager"),
    "investigator": ("Investigator", "is a Village Spy", "is not a Village Spy"),
    "seer": ("Seer", "is a Werewolf", "is not a Werewolf"),
    "gerbil": ("Were-Gerbil", "is the Were-Hamster", "is not the Were-Hamster"),
}


def _cards_text(cards):
    return f"{card_label(cards.get('character'))} ({card_label(cards.get('type'))})"


def describe_info(what, result, about, names):
    """One private result in words (the `info` events of FORMAT.md)."""
    about_name = _who(names, about) if about is not None else None
    if what == "allies":
        own, mixed_label = ALLY_GROUPS.get(result.get("group"), ("Your group", None))
        known = result.get("known", [])
        text = f"{own}: {_list(names, known)}."
        if mixed_label:
            mixed = result.get("mixed", [])
            n = result.get("mixed_witches", 0)
            if mixed:
                text += (
                    f" {mixed_label}: {_list(names, mixed)} — "
                    f"{_plural(n, 'Witch', 'Witches')} among them."
                )
            else:
                text += f" {mixed_label}: nobody."
        return text
    if what in CHECKS:
        checker, yes, no = CHECKS[what]
        return f"{checker}'s check: {about_name} {yes if result else no}."
    if what in ("acolyte", "nun"):
        card = "Priest" if what == "acolyte" else "Bishop"
        if result is None:
            return f"There is no {card} in this game."
        return f"The {card} is {_who(names, result)}."
    if what == "oracle":
        if not result:
            return "No character that kills at Halftime is in play."
        parts = [f"{card_label(c)}: {_who(names, n)}" for c, n in sorted(result.items())]
        return "The characters that kill at Halftime: " + "; ".join(parts) + "."
    if what == "fanatic":
        return "The Priest checked you: you gain an extra life."
    if what == "investigator_life":
        return "You have checked every Village Spy: you gain an extra life."
    if what == "archangel_card":
        return f"You now hold {_plural(result, 'Archangel card')}."
    if what in ("gravedigger", "templar"):
        return f"{about_name}'s cards: {_cards_text(result)}."
    if what in ("undertaker", "sunlight"):
        if not result:
            return "Nobody's cards to see."
        parts = [f"{_who(names, n)}: {_cards_text(c)}" for n, c in sorted(result.items())]
        return "The cards of the dead: " + "; ".join(parts) + "."
    if what == "bishop":
        return f"The living Coven members: {_list(names, result)}."
    if what == "zealot":
        return f"The living Holy Villagers: {_list(names, result)}."
    if what == "cupid":
        return f"The Village Lovers: {_list(names, result)}."
    if what == "queen":
        return f"The King's Court has an {result} number of Witches."
    if what == "court":
        return f"The King's Court: {_list(names, result)}."
    if what == "court_disbanded":
        return "The King's Court has disbanded."
    if what == "coven":
        return f"The Junior Witches have joined the Coven. The Coven: {_list(names, result)}."
    if what == "vigilante":
        return "Someone on your side died to the King's Court: you may kill tonight."
    if what == "armed":
        if result:
            return "You were given a weapon: you may make one kill on a later night."
        return "You were given a weapon, but a Holy Villager cannot use it."
    if what == "harlot":
        return f"{about_name}, a Village Lover, was protected; you share the protection."
    if what == "traveling_medic":
        gave = "gained" if result else "did not gain"
        return f"{about_name} {gave} an extra life from you."
    if what == "veto":
        return f"The Demons vetoed: {_list(names, result)}."
    if what in ("summoner", "assassin"):
        return f"The {what.capitalize()} named: {_list(names, result)}."
    if what == "hexed":
        return "You were hexed tonight: your actions tonight do nothing."
    if what == "witch":
        return f"The pack's victim tonight: {about_name}."
    if what == "lovers":
        return f"Your Lover: {_who(names, result)}."
    return f"{what}: {result}" + (f" ({about_name})" if about_name else "")


# --- submissions ----------------------------------------------------------------------------
ACTIONS = {
    "vote": "Vote to lynch",
    "unvote": "Withdraw your vote",
    "coven": "The Coven's kill vote",
    "court": "The King's Court's kill vote",
    "protect": "Protect (the Angels' vote)",
    "veto": "Veto (the Demons' vote)",
    "archangel": "Spend an Archangel card: tonight the Angels ignore every veto",
    "archdemon": "Spend an Archangel card on an Archdemon veto",
    "give_card": "Give an Archangel card to another player in the afterlife",
    "save": "Save vote",
    "weapon": "Use your weapon",
    "pack": "The pack's kill vote",
    "ability": "Use your ability",
    "withdraw": "Withdraw",
}
ABILITIES = {
    # card: what its ability form does, in the player's words
    "priest": "Check whether a player is in the Coven",
    "inquisitor": "Check whether a player is a Holy Villager",
    "investigator": "Check whether a player is a Village Spy",
    "king": "Choose up to four players to join your Court",
    "paladin": "Give a Court member an extra life",
    "vigilante": "Kill a player",
    "anarchist": "Kill a player (a second one if the first was on the Court)",
    "hunter": "Kill a player",
    "entertainer": "Name three other players",
    "summoner": "Name exactly three players to kill",
    "assassin": "Name exactly two players to kill",
    "blacksmith": "Arm one or two other players",
    "traveling_medic": "Give a player of your type an extra life",
    "traveling_mercenary": "Kill a player",
    "traveling_mystic": "Mark a player for an Archangel card",
    "traveling_minstrel": "Choose a fellow Traveler to act twice",
    "moonlight_pagan": "Reveal the Moonlight Pagan tonight",
    "undertaker": "Look at the cards of the night's dead",
    "judge": "Name the player to lynch if the town fails",
    "lookout": "Choose the Alarm's player type",
    "loose_cannon": "Reveal and decide the lynch",
    "wizard": "Reveal and guess a player's character",
    "pious_musketeer": "Reveal and name one or two players",
    "sneaky_musketeer": "Reveal and name one or two players",
    "reckless_musketeer": "Reveal and name one or two players",
    "twilight_pagan": "Reveal and kill a survivor",
    "sunlight_pagan": "Reveal and see the cards of today's dead",
    "templar": "Reveal, or attack a revealed Pagan",
    "captain": "Reveal the Captain",
    "dirty_old_bastard": "Last act: kill a player (or decline)",
    "benevolent_old_dame": "Last act: give a player an extra life (or decline)",
    "seer": "Check whether a player is a Werewolf",
    "warlock": "Hex a player",
    "were_gerbil": "Search for the Were-Hamster",
    "devil": "Kill a player",
    "witch": "Heal the pack's victim, or poison a player",
    "matchmaker": "Name the two Lovers",
}
CHOICES = {"heal": "Heal the pack's victim", "poison": "Poison a player"}
WITHDRAW_WHAT = {
    "coven": "Coven vote",
    "court": "Court vote",
    "protect": "protect vote",
    "veto": "veto vote",
    "save": "save vote",
    "ability": "ability",
    "weapon": "weapon use",
    "pack": "pack vote",
    "vote": "vote",
}


@register.filter
def action_label(action):
    return ACTIONS.get(action, action)


@register.filter
def ability_label(card):
    return ABILITIES.get(card, "Use your ability")


@register.filter
def choice_label(key):
    return CHOICES.get(key) or card_label(key)


@register.filter
def withdraw_label(what):
    return WITHDRAW_WHAT.get(what, what)


def describe_step(step, names):
    """A submitted ability or weapon (an engine step, as standing submissions hold it)."""
    parts = []
    targets = step.get("targets")
    if targets is None and step.get("target"):
        targets = [step["target"]]
    if targets:
        parts.append(_list(names, targets))
    if step.get("guess"):
        parts.append(f"guess: {card_label(step['guess'])}")
    if step.get("choice"):
        parts.append(choice_label(step["choice"]))
    return ", ".join(parts) if parts else "no one named"


@register.simple_tag
def standing_text(what, value, names):
    """One standing submission: {what: target} or {what: step} (engine `standing`)."""
    body = describe_step(value, names) if isinstance(value, dict) else _who(names, value)
    return f"{WITHDRAW_WHAT.get(what, what).capitalize()}: {body}"


# --- events ---------------------------------------------------------------------------------
def _public(data, names):
    event = data.get("event")
    who = _who(names, data.get("player"))
    if event == "reveal":
        return f"{who} reveals: {card_label(data.get('character'))}."
    if event == "removed":
        return f"{who} has been removed from the game by the moderator."
    if event == "gift":
        return f"{_who(names, data.get('from'))} gives {who} an extra life."
    if event == "returned":
        return f"{who} is alive after all and returns to the game."
    if event == "alarm":
        return "The Alarm sounds."
    if event == "spies_dead":
        return "All Village Spies are dead."
    if event == "halftime":
        return "Halftime: at least half of the players are dead."
    if event == "card":
        return f"{who} was {card_label(data.get('role'))}."
    return str(data)


def _moderator(data, names):
    if "attempt" in data:
        outcome = {"died": "died", "survived": "survived", "fake": "died (a fake death)"}
        return (
            f"Kill attempt on {_who(names, data['attempt'])} ({data.get('cause')}): "
            f"{outcome.get(data.get('outcome'), data.get('outcome'))}."
        )
    if "protected" in data:
        return f"Protected tonight: {_list(names, data['protected'])}."
    if "court" in data:
        return f"The King's Court forms: {_list(names, data['court'])}."
    if "captain" in data:
        lives = _plural(data.get("lives"), "extra life", "extra lives")
        return f"The Captain {_who(names, data['captain'])} now has {lives}."
    if "alarm" in data:
        return f"The Alarm's type: {card_label(data['alarm'])}."
    if "stalemate" in data:
        return f"Stalemate: {_plural(data['stalemate'], 'cycle')} without a death."
    if "wizard" in data:
        return (
            f"The Wizard {_who(names, data['wizard'])} guessed that "
            f"{_who(names, data.get('target'))} is {card_label(data.get('guess'))}."
        )
    if data.get("act") == "remove":
        return f"The moderator removes {_who(names, data.get('player'))}."
    if data.get("act") == "stalemate":
        return "The moderator declares a stalemate."
    return _generic(data, names)


def _afterlife(data, names):
    by = _who(names, data.get("by"))
    if "protect" in data:
        return f"Angel {by} votes to protect {_who(names, data['protect'])}."
    if "veto" in data:
        return f"Demon {by} votes to veto {_who(names, data['veto'])}."
    if "archangel" in data:
        return f"{_who(names, data['archangel'])} spends an Archangel card."
    if "archdemon" in data:
        return (
            f"{_who(names, data['archdemon'])} spends an Archangel card to veto "
            f"{_who(names, data.get('target'))}."
        )
    if "give_card" in data:
        return (
            f"{_who(names, data['give_card'])} gives an Archangel card to "
            f"{_who(names, data.get('to'))}."
        )
    return _generic(data, names)


def _generic(data, names):
    def show(v):
        if isinstance(v, str):
            return _who(names, v)
        if isinstance(v, list):
            return _list(names, v)
        return str(v)

    return "; ".join(f"{k.replace('_', ' ')}: {show(v)}" for k, v in data.items()) + "."


def describe_event(kind, data, names, viewer=None):
    """One event in words. `viewer` (a seat name) turns the viewer's own acts into "You"."""

    def mine(name):
        return viewer is not None and name == viewer

    def actor(name):
        return "You" if mine(name) else _who(names, name)

    def verb(name, third_person):
        return third_person[:-1] if mine(name) else third_person  # "votes" -> "vote"

    if kind == "phase":
        return f"{phase_label(data.get('phase'))} begins."
    if kind == "lynch":
        return f"The town lynches {_who(names, data.get('target'))}."
    if kind == "death":
        return f"{_who(names, data.get('player'))} has died."
    if kind == "survival":
        return f"{_who(names, data.get('player'))} survived an attempt on their life."
    if kind == "public":
        return _public(data, names)
    if kind == "game_over":
        winner = data.get("winner")
        verb = "win" if winner in ("witches", "werewolves", "hamster_and_gerbil") else "wins"
        return (
            f"The game is over: {winner_label(winner)} {verb}. "
            f"Winners: {_list(names, data.get('winners', []))}."
        )
    if kind == "setup":
        types = ", ".join(
            f"{n} {type_label_count(t, n)}" for t, n in sorted(data.get("types", {}).items())
        )
        chars = ", ".join(character_label(c) for c in data.get("characters", []))
        return f"In play: {chars}. Player types: {types}."
    if kind == "replaced":
        # Names resolve to the seat's current occupant: the newcomer (W-72).
        return f"{_who(names, data.get('player'))} now plays this seat (a replacement)."
    if kind == "vote":
        voter = data.get("voter")
        return f"{actor(voter)} {verb(voter, 'votes')} to lynch {_who(names, data.get('target'))}."
    if kind == "unvote":
        voter = data.get("voter")
        return (
            f"{actor(voter)} {verb(voter, 'withdraws')} {'your' if mine(voter) else 'their'} vote."
        )
    if kind in ("coven_vote", "court_vote", "pack_vote"):
        group = {"coven_vote": "Coven", "court_vote": "Court", "pack_vote": "Pack"}[kind]
        voter = data.get("voter")
        return (
            f"{group}: {actor(voter)} {verb(voter, 'votes')} to kill "
            f"{_who(names, data.get('target'))}."
        )
    if kind == "save_vote":
        voter = data.get("voter")
        return f"{actor(voter)} {verb(voter, 'votes')} to save {_who(names, data.get('target'))}."
    if kind == "submitted":
        step = {k: v for k, v in data.items() if k != "actor"}
        what = "your weapon's target" if data.get("action") == "weapon" else "a target"
        body = describe_step(step, names)
        if data.get("actor"):
            return f"{actor(data['actor'])} chose: {body}."
        # A weapon's submission goes to its user alone.
        return f"You chose {what}: {body}." if viewer is not None else f"Weapon: {body}."
    if kind == "withdrawn":  # addressed to the seat that withdrew
        what = withdraw_label(data.get("what"))
        return f"You withdrew your {what}." if viewer is not None else f"Withdrew a {what}."
    if kind == "lovers_bound":
        return f"You bound the Lovers: {_list(names, data.get('lovers', []))}."
    if kind == "info":
        return describe_info(data.get("what"), data.get("result"), data.get("about"), names)
    if kind == "midnight":
        if "victim" in data:
            return (
                f"Midnight: the pack's victim is {_who(names, data.get('victim'))}; "
                f"hexed: {_who(names, data.get('hexed'))}."
            )
        return (
            f"Midnight: the Coven's target is {_who(names, data.get('coven'))}; the Court's, "
            f"{_who(names, data.get('court'))}; vetoed: {_list(names, data.get('vetoes', []))}."
        )
    if kind == "court_disbanded":
        return f"The King's Court disbands: {_list(names, data.get('members', []))}."
    if kind == "afterlife":
        return _afterlife(data, names)
    if kind == "moderator":
        return _moderator(data, names)
    return _generic(data, names)


@register.simple_tag
def audience_text(event, names):
    """Who could see an event while the game ran (the final reveal shows them all)."""
    if event.audience == "public":
        return "everyone"
    if event.audience == "dead":
        return "the afterlife"
    if event.audience == "moderator":
        return "the moderator"
    label = ", ".join(names.get(s.name, s.name) for s in event.recipients.all())
    return f"{event.meeting.capitalize()}: {label}" if event.meeting else f"to {label}"


@register.simple_tag
def event_text(event, names, viewer=None):
    """{% event_text event names viewer %}: a GameEvent, or a dict with kind and data."""
    if isinstance(event, dict):
        return describe_event(event["kind"], event["data"], names, viewer)
    return describe_event(event.kind, event.data, names, viewer)


# --- the thread -------------------------------------------------------------------------------
def post_page(number):
    """The page of the whole public thread that holds post `number` (posts are numbered
    1, 2, 3… in their thread)."""
    return (int(number) - 1) // POSTS_PER_PAGE + 1


@register.simple_tag
def post_url(game_id, number):
    """The permalink of post `number`: its page of the whole thread, and its anchor."""
    return f"{reverse('game_detail', args=[game_id])}?page={post_page(number)}#p{number}"
