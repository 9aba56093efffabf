"""What a seat may do, in words, when its forms do not say it: the powers that open later
(after midnight, tonight), what the dead do, and what an accepted action did."""

from django.utils.translation import gettext as _

from .actions import ability_label, action_label, choice_label
from .labels import Names, display_name
from .submissions import describe_step


def coming_labels(actions, card) -> list[str]:
    """The labels of the actions a seat may take later (engine `coming_options`)."""
    return [str(ability_label(card) if a == "ability" else action_label(a)) for a in actions]


def idle_text(*, status, ruleset, angel, night) -> str:
    """Why a seat has no form right now, in its own situation (the living by day vote in
    the thread; the page says so beside this)."""
    if status == "removed":
        return _("The moderator removed you from the game: you take no more part in it.")
    if status in ("last_act", "fake"):
        return _("Nothing right now: you are offstage.")
    if status == "dead" and ruleset == "werewolf":
        return _(
            "You are dead: you take no more part in the game, but you can talk with the "
            "other dead in the graveyard and read the thread."
        )
    if status == "dead":
        if night:
            if angel:
                return _("Nothing more for you tonight: the Angels' vote is in the afterlife.")
            return _("Nothing more for you tonight: the Demons' vote is in the afterlife.")
        if angel:
            return _(
                "As an Angel you act at night, here: vote to protect a living player. "
                "By day, talk with the other dead in the afterlife."
            )
        return _(
            "As a Demon you act at night, here: vote to veto a living player's protection. "
            "By day, talk with the other dead in the afterlife."
        )
    if night:
        return _("Nothing more tonight: what you may do changes with each phase.")
    return _("Nothing right now.")


def accepted_text(action: str, step: dict, names: Names, card: str | None) -> str:
    """What an accepted action did, as the player would say it ("Your Coven vote is now on
    Dan.")."""
    target = display_name(step["target"], names) if step.get("target") else ""
    if action == "vote":
        return _("Your vote is now on %(name)s.") % {"name": target}
    votes = {
        "coven": _("Your Coven vote is now on %(name)s."),
        "court": _("Your Court vote is now on %(name)s."),
        "pack": _("Your pack vote is now on %(name)s."),
        "protect": _("Your vote to protect is now on %(name)s."),
        "veto": _("Your veto is now on %(name)s."),
        "save": _("Your save vote is now on %(name)s."),
    }
    if action in votes:
        return votes[action] % {"name": target}
    if action == "archangel":
        return _(
            "You spent your Archangel card: tonight the Angels' protection ignores every veto."
        )
    if action == "archdemon":
        return _("You spent your Archangel card on an Archdemon veto of %(name)s.") % {
            "name": target
        }
    if action == "give_card":
        return _("You gave an Archangel card to %(name)s.") % {"name": target}
    if action == "weapon":
        return _("You will use your weapon on %(name)s tonight.") % {"name": target}
    # An ability: what its form does (or the choice made), and whom it names.
    choice = step.get("choice")
    what = str(choice_label(choice) if choice else ability_label(card) if card else "")
    named = {k: v for k, v in step.items() if k != "choice"}
    if named.get("targets") or named.get("guess"):
        return _("Submitted: %(what)s (%(details)s).") % {
            "what": what,
            "details": describe_step(named, names),
        }
    if choice:
        return _("Submitted: %(what)s.") % {"what": what}
    return _("Submitted: %(what)s, naming no one.") % {"what": what}


def withdrawn_text(what_label: str) -> str:
    return _("You withdrew your %(what)s.") % {"what": what_label}
