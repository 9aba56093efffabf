"""A seat's submissions in words: a submitted ability or weapon (an engine step) and the
standing submissions the role page lists."""

from collections.abc import Mapping

from django.utils.translation import gettext as _

from .actions import choice_label, withdraw_label
from .labels import Names, capitalised, card_label, display_name, name_list


def describe_step(step: Mapping, names: Names) -> str:
    """A submitted ability or weapon (an engine step, as standing submissions hold it):
    whom it names, its guess and its choice."""
    parts = []
    targets = step.get("targets")
    if targets is None and step.get("target"):
        targets = [step["target"]]
    if targets:
        parts.append(name_list(names, targets))
    if step.get("guess"):
        parts.append(_("guess: %(card)s") % {"card": card_label(step["guess"])})
    if step.get("choice"):
        parts.append(choice_label(step["choice"]))
    return ", ".join(parts) if parts else _("no one named")


def standing_text(what, value, names: Names) -> str:
    """One standing submission: {what: target} or {what: step} (engine `standing`)."""
    if isinstance(value, Mapping):
        body = describe_step(value, names)
    else:
        body = display_name(value, names)
    label = withdraw_label(what)
    return _("%(what)s: %(submission)s") % {"what": capitalised(label), "submission": body}
