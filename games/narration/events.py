"""Events in words: `describe_event` picks one small narrator per event kind from a table.

Every text is built from one event's own data, so a page, an email or a digest shows
exactly what its events say and nothing else: who may see an event is decided before it
reaches a narrator. Names are seat names, shown as the occupant's player name through
`names` ({seat name: player name}); `viewer`, a seat name, turns the viewer's own acts
into "You".
"""

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from . import logs
from .actions import choice_label, withdraw_label
from .labels import Names, character_label, display_name, name_list, phase_label, type_label_count
from .results import describe_info
from .submissions import describe_step

Narrator = Callable[[Mapping, Names, str | None], str]


def _phase(data, names, viewer):
    return _("%(phase)s begins.") % {"phase": phase_label(data.get("phase"))}


def _lynch(data, names, viewer):
    return _("The town lynches %(player)s.") % {"player": display_name(data.get("target"), names)}


def _death(data, names, viewer):
    return _("%(player)s has died.") % {"player": display_name(data.get("player"), names)}


def _survival(data, names, viewer):
    return _("%(player)s survived an attempt on their life.") % {
        "player": display_name(data.get("player"), names)
    }


def _replaced(data, names, viewer):
    # Names resolve to the seat's current occupant: the newcomer (W-72).
    return _("%(player)s now plays this seat (a replacement).") % {
        "player": display_name(data.get("player"), names)
    }


GAME_OVER = {
    # winner: the end of the game, as a sentence
    "village": gettext_lazy("The game is over: the Village wins. Winners: %(winners)s."),
    "witches": gettext_lazy("The game is over: the Witches win. Winners: %(winners)s."),
    "werewolves": gettext_lazy("The game is over: the Werewolves win. Winners: %(winners)s."),
    "fool": gettext_lazy("The game is over: the Fool wins. Winners: %(winners)s."),
    "were_hamster": gettext_lazy("The game is over: the Were-Hamster wins. Winners: %(winners)s."),
    "hamster_and_gerbil": gettext_lazy(
        "The game is over: the Were-Hamster and the Were-Gerbil win. Winners: %(winners)s."
    ),
    "nobody": gettext_lazy("The game is over: nobody wins. Winners: %(winners)s."),
}


def _game_over(data, names, viewer):
    winner = data.get("winner")
    winners = name_list(names, data.get("winners", []))
    if winner in GAME_OVER:
        return GAME_OVER[winner] % {"winners": winners}
    return _("The game is over: %(winner)s wins. Winners: %(winners)s.") % {
        "winner": winner,
        "winners": winners,
    }


def public_setup(data) -> tuple[list[str], list[tuple[str, int]]]:
    """The public setup event's data (W-23) as (characters in play, [(player type, count)]),
    each sorted by its key. The engine counts the types as it meets them in seat order, and
    a stored event may keep that order: shown as it comes, the list would tell everyone the
    type of the first seat. Every page and sentence reads the setup through this."""
    characters = sorted(str(c) for c in data.get("characters", []))
    types = sorted((str(t), n) for t, n in data.get("types", {}).items())
    return characters, types


def _setup(data, names, viewer):
    characters, counts = public_setup(data)
    types = [
        # Translators: a number of players and their player type, e.g. "2 Elder Witches".
        pgettext("count of a type", "%(n)s %(type)s") % {"n": n, "type": type_label_count(t, n)}
        for t, n in counts
    ]
    return _("In play: %(characters)s. Player types: %(types)s.") % {
        "characters": ", ".join(character_label(c) for c in characters),
        "types": ", ".join(types),
    }


def _vote(data, names, viewer):
    target = display_name(data.get("target"), names)
    if viewer is not None and data.get("voter") == viewer:
        return _("You vote to lynch %(target)s.") % {"target": target}
    voter = display_name(data.get("voter"), names)
    return _("%(voter)s votes to lynch %(target)s.") % {"voter": voter, "target": target}


def _unvote(data, names, viewer):
    if viewer is not None and data.get("voter") == viewer:
        return _("You withdraw your vote.")
    return _("%(voter)s withdraws their vote.") % {"voter": display_name(data.get("voter"), names)}


MEETINGS = {
    "coven_vote": pgettext_lazy("meeting", "Coven"),
    "court_vote": pgettext_lazy("meeting", "Court"),
    "pack_vote": pgettext_lazy("meeting", "Pack"),
}


def _meeting_vote(kind):
    """A kill vote in a meeting (the Coven, the King's Court, the pack)."""

    def narrate(data, names, viewer):
        target = display_name(data.get("target"), names)
        if viewer is not None and data.get("voter") == viewer:
            return _("%(meeting)s: You vote to kill %(target)s.") % {
                "meeting": MEETINGS[kind],
                "target": target,
            }
        return _("%(meeting)s: %(voter)s votes to kill %(target)s.") % {
            "meeting": MEETINGS[kind],
            "voter": display_name(data.get("voter"), names),
            "target": target,
        }

    return narrate


def _save_vote(data, names, viewer):
    target = display_name(data.get("target"), names)
    if viewer is not None and data.get("voter") == viewer:
        return _("You vote to save %(target)s.") % {"target": target}
    voter = display_name(data.get("voter"), names)
    return _("%(voter)s votes to save %(target)s.") % {"voter": voter, "target": target}


def _submitted(data, names, viewer):
    step = describe_step({k: v for k, v in data.items() if k != "actor"}, names)
    actor = data.get("actor")
    if actor and viewer is not None and actor == viewer:
        return _("You chose: %(step)s.") % {"step": step}
    if actor:
        return _("%(actor)s chose: %(step)s.") % {"actor": display_name(actor, names), "step": step}
    # A weapon's submission goes to its user alone.
    if viewer is None:
        return _("Weapon: %(step)s.") % {"step": step}
    if data.get("action") == "weapon":
        return _("You chose your weapon's target: %(step)s.") % {"step": step}
    return _("You chose a target: %(step)s.") % {"step": step}


WITHDREW = {
    # what: a withdrawal, told to someone other than the seat that withdrew
    "coven": gettext_lazy("Withdrew a Coven vote."),
    "court": gettext_lazy("Withdrew a Court vote."),
    "protect": gettext_lazy("Withdrew a protect vote."),
    "veto": gettext_lazy("Withdrew a veto vote."),
    "save": gettext_lazy("Withdrew a save vote."),
    "ability": gettext_lazy("Withdrew an ability."),
    "weapon": gettext_lazy("Withdrew a weapon use."),
    "pack": gettext_lazy("Withdrew a pack vote."),
    "vote": gettext_lazy("Withdrew a vote."),
}


def _withdrawn(data, names, viewer):  # addressed to the seat that withdrew
    what = data.get("what")
    if data.get("choice"):  # one of the Werewolf Witch's two potions (WW-7)
        choice = choice_label(data["choice"])
        if viewer is None:
            return _("Withdrew a choice: %(choice)s.") % {"choice": choice}
        return _("You withdrew your %(what)s: %(choice)s.") % {
            "what": withdraw_label(what),
            "choice": choice,
        }
    if viewer is not None:
        return _("You withdrew your %(what)s.") % {"what": withdraw_label(what)}
    if what in WITHDREW:
        return str(WITHDREW[what])
    return _("Withdrew: %(what)s.") % {"what": withdraw_label(what)}


def _lovers_bound(data, names, viewer):
    return _("You bound the Lovers: %(players)s.") % {
        "players": name_list(names, data.get("lovers", []))
    }


def _info(data, names, viewer):
    return describe_info(data.get("what"), data.get("result"), data.get("about"), names)


def _midnight(data, names, viewer):
    if "victim" in data:
        return _("Midnight: the pack's victim is %(victim)s; hexed: %(hexed)s.") % {
            "victim": display_name(data.get("victim"), names),
            "hexed": display_name(data.get("hexed"), names),
        }
    return _(
        "Midnight: the Coven's target is %(coven)s; the Court's, %(court)s; vetoed: %(vetoes)s."
    ) % {
        "coven": display_name(data.get("coven"), names),
        "court": display_name(data.get("court"), names),
        "vetoes": name_list(names, data.get("vetoes", [])),
    }


def _court_disbanded(data, names, viewer):
    return _("The King's Court disbands: %(players)s.") % {
        "players": name_list(names, data.get("members", []))
    }


NARRATORS: dict[str, Narrator] = {
    "phase": _phase,
    "lynch": _lynch,
    "death": _death,
    "survival": _survival,
    "public": logs.public,
    "game_over": _game_over,
    "setup": _setup,
    "replaced": _replaced,
    "vote": _vote,
    "unvote": _unvote,
    "coven_vote": _meeting_vote("coven_vote"),
    "court_vote": _meeting_vote("court_vote"),
    "pack_vote": _meeting_vote("pack_vote"),
    "save_vote": _save_vote,
    "submitted": _submitted,
    "withdrawn": _withdrawn,
    "lovers_bound": _lovers_bound,
    "info": _info,
    "midnight": _midnight,
    "court_disbanded": _court_disbanded,
    "afterlife": logs.afterlife,
    "moderator": logs.moderator,
    # A game ended by stalemate is announced publicly; also accepted as a kind of its own.
    "stalemate": logs.stalemate,
}


def describe_event(kind: str, data: Mapping, names: Names, viewer: str | None = None) -> str:
    """One event in words. `viewer` (a seat name) turns the viewer's own acts into "You"."""
    return NARRATORS.get(kind, logs.generic)(data, names, viewer)
