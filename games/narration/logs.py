"""The three logs that hold several kinds of entry, in words: public announcements (a
`public` event's `event`), the moderator's log and the afterlife's log. `describe_event`
(events.py) hands these events here; each entry kind has its own small narrator."""

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .labels import Names, card_in_sentence, card_label, display_name, name_list

Data = Mapping  # an event's data, as the engine emitted it


# --- public announcements -------------------------------------------------------------
def _reveal(data, names):
    return _("%(player)s reveals that they are %(card)s.") % {
        "player": display_name(data.get("player"), names),
        "card": card_in_sentence(data.get("character")),
    }


def _gift(data, names):
    return _("%(giver)s gives %(player)s an extra life.") % {
        "giver": display_name(data.get("from"), names),
        "player": display_name(data.get("player"), names),
    }


def _card(data, names):
    """A Werewolf death's card, when the game shows it (WW-3): "Martha was a Villager"."""
    return _("%(player)s was %(card)s.") % {
        "player": display_name(data.get("player"), names),
        "card": card_in_sentence(data.get("role")),
    }


STALEMATES = {
    # cause: why the game ended in a stalemate (W-69a, W-72)
    "cycles": gettext_lazy(
        "Stalemate: nobody has died for too many cycles in a row, so the Witches win."
    ),
    "moderator": gettext_lazy("Stalemate: the moderator has ended the game, so the Witches win."),
}


def stalemate(data, names, viewer=None):
    """A game ended by stalemate, and why: W-69a (cycles without a death) or the
    moderator's declaration (W-72)."""
    cycles = data.get("cycles")
    if data.get("cause") == "cycles" and isinstance(cycles, int):
        return ngettext(
            "Stalemate: nobody has died for %(n)s cycle, so the Witches win.",
            "Stalemate: nobody has died for %(n)s cycles in a row, so the Witches win.",
            cycles,
        ) % {"n": cycles}
    if data.get("cause") in STALEMATES:
        return str(STALEMATES[data["cause"]])
    return _("Stalemate: the Witches win.")


PLAYER_ANNOUNCEMENTS = {
    # event: a sentence about one player
    "removed": gettext_lazy("%(player)s has been removed from the game by the moderator."),
    "returned": gettext_lazy("%(player)s is alive after all and returns to the game."),
}
ANNOUNCEMENTS = {
    # event: a sentence about nobody in particular
    "alarm": gettext_lazy("The Alarm sounds."),
    "spies_dead": gettext_lazy("All Village Spies are dead."),
    "halftime": gettext_lazy("Halftime: at least half of the players are dead."),
}
PUBLIC = {"reveal": _reveal, "gift": _gift, "card": _card, "stalemate": stalemate}


def public(data: Data, names: Names, viewer=None) -> str:
    """A public announcement (a `public` event), by its `event`."""
    event = data.get("event")
    if event in PLAYER_ANNOUNCEMENTS:
        return PLAYER_ANNOUNCEMENTS[event] % {"player": display_name(data.get("player"), names)}
    if event in ANNOUNCEMENTS:
        return str(ANNOUNCEMENTS[event])
    if event in PUBLIC:
        return PUBLIC[event](data, names)
    return str(data)


# --- the moderator's log --------------------------------------------------------------
OUTCOMES = {
    "died": gettext_lazy("Kill attempt on %(player)s (%(cause)s): died."),
    "survived": gettext_lazy("Kill attempt on %(player)s (%(cause)s): survived."),
    "fake": gettext_lazy("Kill attempt on %(player)s (%(cause)s): died (a fake death)."),
}


def _attempt(data, names):
    outcome = data.get("outcome")
    if outcome in OUTCOMES:
        sentence = OUTCOMES[outcome]
    else:
        sentence = _("Kill attempt on %(player)s (%(cause)s): %(outcome)s.")
    return sentence % {
        "player": display_name(data["attempt"], names),
        "cause": data.get("cause"),
        "outcome": outcome,
    }


def _protected(data, names):
    return _("Protected tonight: %(players)s.") % {"players": name_list(names, data["protected"])}


def _court(data, names):
    return _("The King's Court forms: %(players)s.") % {"players": name_list(names, data["court"])}


def _captain(data, names):
    lives = data.get("lives")
    return ngettext(
        "The Captain %(player)s now has %(n)s extra life.",
        "The Captain %(player)s now has %(n)s extra lives.",
        lives,
    ) % {"player": display_name(data["captain"], names), "n": lives}


def _alarm(data, names):
    return _("The Alarm's type: %(type)s.") % {"type": card_label(data["alarm"])}


def _stalemate_cycles(data, names):
    n = data["stalemate"]
    return ngettext(
        "Stalemate: %(n)s cycle without a death.", "Stalemate: %(n)s cycles without a death.", n
    ) % {"n": n}


def _wizard(data, names):
    return _("The Wizard %(wizard)s guessed that %(player)s is %(card)s.") % {
        "wizard": display_name(data["wizard"], names),
        "player": display_name(data.get("target"), names),
        "card": card_in_sentence(data.get("guess")),
    }


def _act(data, names):
    if data.get("act") == "remove":
        return _("The moderator removes %(player)s.") % {
            "player": display_name(data.get("player"), names)
        }
    if data.get("act") == "stalemate":
        return _("The moderator declares a stalemate.")
    return generic(data, names)


# Which entry a moderator event is, by the key it holds: the first key found decides.
MODERATOR = {
    "attempt": _attempt,
    "protected": _protected,
    "court": _court,
    "captain": _captain,
    "alarm": _alarm,
    "stalemate": _stalemate_cycles,
    "wizard": _wizard,
    "act": _act,
}


def _by_key(table, data: Data, names: Names) -> str:
    """The narrator of the first key of `table` that `data` holds, else the generic one."""
    for key, narrate in table.items():
        if key in data:
            return narrate(data, names)
    return generic(data, names)


def moderator(data: Data, names: Names, viewer=None) -> str:
    """An entry of the moderator's log (causes of death, W-9, and the moderator's acts)."""
    return _by_key(MODERATOR, data, names)


# --- the afterlife's log --------------------------------------------------------------
def _protect(data, names):
    return _("Angel %(angel)s votes to protect %(player)s.") % {
        "angel": display_name(data.get("by"), names),
        "player": display_name(data["protect"], names),
    }


def _veto(data, names):
    return _("Demon %(demon)s votes to veto %(player)s.") % {
        "demon": display_name(data.get("by"), names),
        "player": display_name(data["veto"], names),
    }


def _archangel(data, names):
    return _("%(player)s spends an Archangel card.") % {
        "player": display_name(data["archangel"], names)
    }


def _archdemon(data, names):
    return _("%(player)s spends an Archangel card to veto %(target)s.") % {
        "player": display_name(data["archdemon"], names),
        "target": display_name(data.get("target"), names),
    }


def _give_card(data, names):
    return _("%(player)s gives an Archangel card to %(target)s.") % {
        "player": display_name(data["give_card"], names),
        "target": display_name(data.get("to"), names),
    }


AFTERLIFE = {
    "protect": _protect,
    "veto": _veto,
    "archangel": _archangel,
    "archdemon": _archdemon,
    "give_card": _give_card,
}


def afterlife(data: Data, names: Names, viewer=None) -> str:
    """An entry of the afterlife's log: the Angels' and Demons' votes and cards (W-16)."""
    return _by_key(AFTERLIFE, data, names)


def generic(data: Data, names: Names, viewer=None) -> str:
    """Any other event: its data, key by key, with seat names as player names."""

    def show(value):
        if isinstance(value, str):
            return display_name(value, names)
        if isinstance(value, list):
            return name_list(names, value)
        return str(value)

    return "; ".join(f"{k.replace('_', ' ')}: {show(v)}" for k, v in data.items()) + "."
